#include "controllers/plugin/plugin_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

namespace dissem::controllers {
namespace {

// The table as ABI 2.0 defined it: the least a plugin of this major has.
// When a minor version appends members, this becomes the offset of the
// first of them (the table of 2.0 does not grow).
constexpr std::size_t kMajorTableSize = sizeof(dissem_controller_plugin_table);

// The entry point of ABI 1, which had the version in the symbol's name.
constexpr const char* kAbi1Entry = "dissem_controller_plugin_v1";

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  std::string message = "controller plugin ";
  message += path;
  message += ": ";
  message += what;
  throw PluginError(message);
}

std::string this_build() {
  return "this build expects ABI version " + std::to_string(DISSEM_PLUGIN_ABI_MAJOR) + ".x (it speaks " +
         std::to_string(DISSEM_PLUGIN_ABI_MAJOR) + "." + std::to_string(DISSEM_PLUGIN_ABI_MINOR) +
         "): rebuild the plugin against this dissem_controller_plugin.h";
}

using EntryPoint = const dissem_controller_plugin_table* (*)();

// Closes the library unless it was kept.
struct CloseLibrary {
  void operator()(void* handle) const { ::dlclose(handle); }
};
using Handle = std::unique_ptr<void, CloseLibrary>;

// The library's ABI version, read before anything in it is called.
dissem_plugin_abi_version read_abi(const Handle& handle, const std::string& path) {
  const void* symbol = ::dlsym(handle.get(), DISSEM_PLUGIN_ABI_SYMBOL);
  if (symbol == nullptr) {
    if (::dlsym(handle.get(), kAbi1Entry) != nullptr)
      fail(path, std::string("ABI version 1 (it exports ") + kAbi1Entry + "), " + this_build());
    fail(path, std::string("no ABI version symbol '") + DISSEM_PLUGIN_ABI_SYMBOL + "' (not a dissem controller plugin)");
  }
  dissem_plugin_abi_version abi{};
  std::memcpy(&abi, symbol, sizeof abi);
  if (abi.major != DISSEM_PLUGIN_ABI_MAJOR)
    fail(path, "ABI version " + std::to_string(abi.major) + "." + std::to_string(abi.minor) + ", " + this_build());
  return abi;
}

// The plugin's table, copied into one of this build's size: what the plugin
// lacks (an older minor) is NULL, what this build lacks (a newer one) is cut.
dissem_controller_plugin_table read_table(const Handle& handle, const std::string& path) {
  void* symbol = ::dlsym(handle.get(), DISSEM_PLUGIN_ENTRY_SYMBOL);
  if (symbol == nullptr) fail(path, std::string("no entry point '") + DISSEM_PLUGIN_ENTRY_SYMBOL + "'");
  EntryPoint entry = nullptr;
  static_assert(sizeof entry == sizeof symbol);
  std::memcpy(&entry, &symbol, sizeof entry);  // object pointer to function pointer, as POSIX allows
  const dissem_controller_plugin_table* plugin = entry();
  if (plugin == nullptr) fail(path, "the entry point returned no table");
  if (plugin->size < kMajorTableSize)
    fail(path, "function table of " + std::to_string(plugin->size) + " bytes, ABI " +
                   std::to_string(DISSEM_PLUGIN_ABI_MAJOR) + " has at least " + std::to_string(kMajorTableSize));
  dissem_controller_plugin_table table{};
  std::memcpy(&table, plugin, std::min<std::size_t>(plugin->size, sizeof table));
  table.size = static_cast<std::uint32_t>(sizeof table);
  if (table.create == nullptr || table.destroy == nullptr) fail(path, "create or destroy is missing");
  return table;
}

}  // namespace

std::shared_ptr<PluginLibrary> PluginLibrary::open(const std::string& path) {
  // RTLD_NOW: an unresolved symbol in the plugin fails here, at start-up,
  // not at its first call on the receive path.
  Handle handle(::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (handle == nullptr) {
    const char* why = ::dlerror();
    fail(path, why != nullptr ? why : "cannot be loaded");
  }
  const dissem_plugin_abi_version abi = read_abi(handle, path);
  const dissem_controller_plugin_table table = read_table(handle, path);
  return std::shared_ptr<PluginLibrary>(new PluginLibrary(path, handle.release(), abi, table));
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
