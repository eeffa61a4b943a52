// The engine's controller interfaces on top of a loaded plugin instance:
// C++ values in, C structs across the boundary, C++ values out.
#pragma once

#include <memory>

#include "controllers/deletion/deletion_controller.h"
#include "controllers/forwarding/forwarding_controller.h"
#include "controllers/plugin/plugin_loader.h"
#include "controllers/replication/replication_controller.h"

namespace dissem::controllers {

class PluginForwarding final : public ForwardingController {
 public:
  // Throws PluginError if the plugin has no forward().
  explicit PluginForwarding(std::shared_ptr<PluginInstance> plugin);
  std::string_view name() const override { return "plugin"; }
  ForwardDecision on_new_fragment(const ReceivedFragment& fragment, const NodeView& node, Micros now,
                                  Random& rng) override;
  bool relays(const std::string& group, const NodeView& node) const override;

 private:
  std::shared_ptr<PluginInstance> plugin_;
};

class PluginReplication final : public ReplicationController {
 public:
  // Throws PluginError if the plugin has no on_contact() or on_summary(), or
  // its replication_policy() sets a budget outside 0.001 .. 1.
  // `budget_fraction` (replication.budget_fraction) is the policy's default.
  PluginReplication(std::shared_ptr<PluginInstance> plugin, double budget_fraction);
  std::string_view name() const override { return "plugin"; }
  std::optional<Micros> on_contact(NodeId peer, const NodeView& node, Micros now, Random& rng) override;
  void on_peer_silent(NodeId peer) override;
  void on_summary_sent(Micros now) override;
  SummaryResponse on_summary(const PeerSummary& summary, const std::vector<HeldMessage>& held, const NodeView& node,
                             Micros now, Random& rng) override;
  double budget_fraction() const override { return policy_.budget_fraction; }
  bool learn_from_summaries() const override { return policy_.learn_from_summaries != 0; }

 private:
  std::shared_ptr<PluginInstance> plugin_;
  dissem_replication_policy policy_{};
};

class PluginDeletion final : public DeletionController {
 public:
  // Throws PluginError if the plugin has no select_victims().
  explicit PluginDeletion(std::shared_ptr<PluginInstance> plugin);
  std::string_view name() const override { return "plugin"; }
  std::vector<MessageId> select_victims(const std::vector<MessageRecord>& messages,
                                        std::uint64_t total_bytes, std::uint64_t quota_bytes,
                                        Micros now) override;

 private:
  std::shared_ptr<PluginInstance> plugin_;
};

}  // namespace dissem::controllers
