// Loads a controller plugin (dissem_controller_plugin.h) with dlopen and
// checks it before anything in it is called: its ABI version is of this
// build's major, the entry point exists, the table is at least as large as
// the major's first version, and the required functions are present. Every
// failure is a PluginError whose message starts with the file name.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "controllers/plugin/dissem_controller_plugin.h"

namespace dissem::controllers {

class PluginError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An open plugin library; closed when the last holder lets go.
class PluginLibrary {
 public:
  static std::shared_ptr<PluginLibrary> open(const std::string& path);
  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const std::string& path() const { return path_; }
  const dissem_plugin_abi_version& abi() const { return abi_; }
  // The plugin's table as this build knows it: members the plugin was not
  // compiled with (an older minor version) are NULL.
  const dissem_controller_plugin_table& table() const { return table_; }

 private:
  PluginLibrary(std::string path, void* handle, dissem_plugin_abi_version abi,
                const dissem_controller_plugin_table& table)
      : path_(std::move(path)), handle_(handle), abi_(abi), table_(table) {}
  std::string path_;
  void* handle_;
  dissem_plugin_abi_version abi_;
  dissem_controller_plugin_table table_;
};

// One plugin instance (create() ... destroy()), shared by the decision
// points of one node that use the plugin.
class PluginInstance {
 public:
  PluginInstance(std::shared_ptr<PluginLibrary> library, const std::string& params);
  ~PluginInstance();
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;

  const dissem_controller_plugin_table& table() const { return library_->table(); }
  const std::string& path() const { return library_->path(); }
  void* get() const { return instance_; }

 private:
  std::shared_ptr<PluginLibrary> library_;
  void* instance_ = nullptr;
};

}  // namespace dissem::controllers
