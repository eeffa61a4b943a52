#include "daemon/config_reload.h"

#include <map>

#include "daemon/daemon_keys.h"
#include "engine/config_keys.h"

namespace dissem::daemon {

bool reloadable_key(const std::string& key) {
  if (key == "log.level" || key == "ipc.mode" || key.starts_with("security.") || key.starts_with("metrics."))
    return true;
  constexpr std::string_view kEngine = "engine.";
  return key.starts_with(kEngine) && engine::live_config_key(std::string_view(key).substr(kEngine.size()));
}

ReloadPlan plan_reload(const DaemonConfig& running, const DaemonConfig& next) {
  std::map<std::string, std::string> before;
  for (const auto& kv : describe(running)) before[kv.key] = kv.text;
  ReloadPlan plan;
  for (const auto& kv : describe(next)) {
    const auto it = before.find(kv.key);
    if (it != before.end() && it->second == kv.text) continue;
    (reloadable_key(kv.key) ? plan.live : plan.restart).push_back(kv.key);
  }
  return plan;
}

DaemonConfig reloaded_config(const DaemonConfig& running, const DaemonConfig& next) {
  DaemonConfig out = running;
  for (const auto& kv : describe(next))
    if (reloadable_key(kv.key)) set_value(out, kv.key, kv.text);
  return out;
}

}  // namespace dissem::daemon
