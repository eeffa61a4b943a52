// Daemon::reload: the configuration and key files read again, and what a
// running daemon can take of them applied (daemon/config_reload.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <stdexcept>

#include "daemon/config_reload.h"
#include "daemon/daemon.h"
#include "daemon/log.h"

namespace dissem::daemon {
namespace {

std::string keys_summary(const engine::SecurityConfig& s) {
  return fmt::format("{} network epoch(s), {} keyed group(s), {} revoked epoch(s), {} revoked publisher(s)",
                     s.network.size(), s.groups.size(), s.revoked_epochs.size(), s.revoked_publishers.size());
}

}  // namespace

ipc::ReloadReport Daemon::reload(ipc::ClientId) {
  if (!reread_) throw ConfigError("reload: this daemon was not started from a configuration it can read again");
  // Everything that can fail comes first, so a refused reload changes nothing.
  const DaemonConfig next = reread_();
  const ReloadPlan plan = plan_reload(config_, next);
  engine::SecurityConfig keys = load_security(next.security);  // the node keeps its replay window (set_security)
  const engine::SecurityConfig& held = main().config().security;
  if (const auto why = engine::security_change_problem(held, keys); !why.empty())
    throw ConfigError(std::string(held.network.empty() != keys.network.empty() ? "security.network_key_file: "
                                                                                : "security.group_keys: ") + why);
  const bool metrics_changed = next.metrics != config_.metrics;
  std::unique_ptr<MetricsServer> metrics = metrics_changed && next.metrics.enabled ? open_metrics(next.metrics) : nullptr;

  // Then every change at once.
  const Micros now = clock_.now();
  // Every link's node holds the same keys and takes the same tunables.
  for (auto& l : links_) l.node->set_security(keys, now);
  const DaemonConfig running = reloaded_config(config_, next);
  for (auto& l : links_) l.node->reconfigure(running.engine);
  if (metrics_changed) {
    metrics_ = std::move(metrics);
    if (!metrics_) log(LogLevel::Info, "metrics: off");
  }
  if (running.ipc.mode != config_.ipc.mode) {
    std::error_code ec;
    std::filesystem::permissions(config_.ipc.socket, static_cast<std::filesystem::perms>(running.ipc.mode), ec);
    if (ec) log(LogLevel::Warn, "ipc.mode: cannot change {}'s permissions: {}", config_.ipc.socket, ec.message());
  }
  log_threshold() = running.log.level;
  config_ = running;
  pump_later();  // a new epoch or revocation may change what is sent and asked for

  ipc::ReloadReport report{plan.live, plan.restart, keys_summary(main().config().security)};
  log(LogLevel::Info, "reloaded: {}; applied: {}; needs a restart: {}", report.keys,
      plan.live.empty() ? "nothing changed" : fmt::format("{}", fmt::join(plan.live, ", ")),
      plan.restart.empty() ? "nothing" : fmt::format("{}", fmt::join(plan.restart, ", ")));
  return report;
}

}  // namespace dissem::daemon
