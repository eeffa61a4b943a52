// Builds a node's controllers from its ControllerSettings: the built-ins by
// name, and the plugin (loaded once per node, shared by the decision points
// that name it) when plugin.path is set.
#pragma once

#include <memory>

#include "controllers/controller_settings.h"
#include "controllers/deletion/deletion_controller.h"
#include "controllers/forwarding/forwarding_controller.h"
#include "controllers/replication/replication_controller.h"

namespace dissem::controllers {

struct ControllerSet {
  std::unique_ptr<ForwardingController> forwarding;
  std::unique_ptr<ReplicationController> replication;
  std::unique_ptr<DeletionController> deletion;
};

// Throws SettingsError for inconsistent settings and PluginError (naming the
// file) when the plugin cannot be loaded or lacks what it is selected for.
ControllerSet make_controllers(const ControllerSettings& settings);

}  // namespace dissem::controllers
