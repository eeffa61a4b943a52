#include "controllers/plugin/plugin_loader.h"

#include <dlfcn.h>

#include <array>
#include <cstring>

namespace dissem::controllers {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  std::string message = "controller plugin ";
  message += path;
  message += ": ";
  message += what;
  throw PluginError(message);
}

using EntryPoint = const dissem_controller_plugin* (*)();

}  // namespace

std::shared_ptr<PluginLibrary> PluginLibrary::open(const std::string& path) {
  // RTLD_NOW: an unresolved symbol in the plugin fails here, at start-up,
  // not at its first call on the receive path.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    fail(path, why != nullptr ? why : "cannot be loaded");
  }
  const auto close_and_fail = [&](const std::string& what) {
    ::dlclose(handle);
    fail(path, what);
  };
  ::dlerror();
  void* symbol = ::dlsym(handle, DISSEM_CONTROLLER_PLUGIN_ENTRY);
  if (symbol == nullptr) {
    close_and_fail(std::string("no entry point '") + DISSEM_CONTROLLER_PLUGIN_ENTRY +
                   "' (not a dissem controller plugin, or built for another interface version)");
  }
  EntryPoint entry = nullptr;
  static_assert(sizeof entry == sizeof symbol);
  std::memcpy(&entry, &symbol, sizeof entry);  // object pointer to function pointer, as POSIX allows
  const dissem_controller_plugin* table = entry();
  if (table == nullptr) close_and_fail("the entry point returned no table");
  if (table->version != DISSEM_CONTROLLER_PLUGIN_VERSION) {
    close_and_fail("interface version " + std::to_string(table->version) + ", this build speaks version " +
                   std::to_string(DISSEM_CONTROLLER_PLUGIN_VERSION));
  }
  if (table->size < sizeof(dissem_controller_plugin)) {
    close_and_fail("function table of " + std::to_string(table->size) + " bytes, expected at least " +
                   std::to_string(sizeof(dissem_controller_plugin)));
  }
  if (table->create == nullptr || table->destroy == nullptr) close_and_fail("create or destroy is missing");
  return std::shared_ptr<PluginLibrary>(new PluginLibrary(path, handle, table));
}

PluginLibrary::~PluginLibrary() { ::dlclose(handle_); }

PluginInstance::PluginInstance(std::shared_ptr<PluginLibrary> library, const std::string& params)
    : library_(std::move(library)) {
  std::array<char, 512> error{};
  instance_ = table().create(params.c_str(), error.data(), error.size());
  if (instance_ == nullptr) {
    error.back() = '\0';
    const std::string why = error[0] != '\0' ? error.data() : "create() failed";
    fail(library_->path(), "plugin.params '" + params + "' refused: " + why);
  }
}

PluginInstance::~PluginInstance() { table().destroy(instance_); }

}  // namespace dissem::controllers
