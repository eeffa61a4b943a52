#include "controllers/controller_set.h"

#include "controllers/forwarding/probabilistic_flooding.h"
#include "controllers/forwarding/relay_set.h"
#include "controllers/forwarding/subscriber_tree.h"
#include "controllers/forwarding/subscription_aware.h"
#include "controllers/plugin/plugin_controllers.h"
#include "controllers/replication/anti_entropy.h"

namespace dissem::controllers {

ControllerSet make_controllers(const ControllerSettings& s) {
  check_settings(s);
  ControllerSet set;
  // Loaded whenever configured, even if no decision point uses it yet: a
  // broken plugin should stop start-up, not surprise a later reconfiguration.
  std::shared_ptr<PluginInstance> plugin;
  if (!s.plugin_path.empty()) plugin = std::make_shared<PluginInstance>(PluginLibrary::open(s.plugin_path), s.plugin_params);

  if (s.forwarding == "flooding") {
    set.forwarding = std::make_unique<ProbabilisticFlooding>(
        FloodingParams{s.forwarding_probability, s.forwarding_hop_limit, s.forwarding_delay_max});
  } else if (s.forwarding == "subscription-aware") {
    set.forwarding = std::make_unique<SubscriptionAwareForwarding>(
        InterestForwardingParams{s.forwarding_hop_limit, s.forwarding_delay_max});
  } else if (s.forwarding == "subscriber-tree") {
    set.forwarding = std::make_unique<SubscriberTreeForwarding>(
        InterestForwardingParams{s.forwarding_hop_limit, s.forwarding_delay_max});
  } else if (s.forwarding == "relay-set") {
    set.forwarding = std::make_unique<RelaySetForwarding>(RelaySetParams{s.forwarding_hop_limit, s.forwarding_delay_max});
  } else if (s.forwarding == "plugin") {
    set.forwarding = std::make_unique<PluginForwarding>(plugin);
  } else {
    set.forwarding = std::make_unique<NoForwarding>();
  }

  if (s.replication == "anti-entropy") {
    set.replication = std::make_unique<AntiEntropy>(AntiEntropyParams{s.replication_budget_fraction,
                                                                      s.replication_max_push_bytes,
                                                                      s.replication_summary_delay_max,
                                                                      s.replication_min_interval});
  } else if (s.replication == "plugin") {
    set.replication = std::make_unique<PluginReplication>(plugin, s.replication_budget_fraction);
  } else {
    set.replication = std::make_unique<NoReplication>();
  }

  if (s.deletion == "plugin") {
    set.deletion = std::make_unique<PluginDeletion>(plugin);
  } else {
    const auto recency = s.deletion == "expiry-priority-oldest" ? ExpiryPriorityEviction::Recency::Oldest
                                                                : ExpiryPriorityEviction::Recency::LeastRecentlyUsed;
    set.deletion = std::make_unique<ExpiryPriorityEviction>(recency, s.deletion_low_watermark);
  }
  return set;
}

}  // namespace dissem::controllers
