// Epidemic anti-entropy (push-pull, as in Demers et al.'s epidemic
// algorithms, on contact as in Vahdat and Becker's epidemic routing): when a
// peer appears or reconnects, both sides broadcast a compact summary (per
// stream, ranges of sequence numbers held, and the groups wanted); whoever
// hears a summary pushes what the sender lacks and wants, and learns from it
// what exists that it lacks itself.
//
// Storms are avoided by: one summary exchange per contact (a node answers a
// peer's summary only if it has not sent its own since that peer appeared),
// a minimum interval between a node's summaries, random delays before
// summaries and pushes (the engine's serve delay), and the NTM, which drops
// a push another node already put on the air.
#pragma once

#include <map>

#include "controllers/replication/replication_controller.h"

namespace dissem::controllers {

struct AntiEntropyParams {
  double budget_fraction = 0.25;
  std::uint64_t max_push_bytes = 16ull << 20;  // pushed in answer to one summary
  Micros summary_delay_max = 0;                // 0: the serve delay plus a few packet times
  Micros min_interval = 2 * kSeconds;
};

class AntiEntropy final : public ReplicationController {
 public:
  explicit AntiEntropy(AntiEntropyParams params) : params_(params) {}
  std::string_view name() const override { return "anti-entropy"; }

  std::optional<Micros> on_contact(NodeId peer, const NodeView& node, Micros now, Random& rng) override;
  void on_peer_silent(NodeId peer) override { contacts_.erase(peer); }
  void on_summary_sent(Micros now) override;
  SummaryResponse on_summary(const PeerSummary& summary, const std::vector<HeldMessage>& held, const NodeView& node,
                             Micros now, Random& rng) override;
  double budget_fraction() const override { return params_.budget_fraction; }
  bool learn_from_summaries() const override { return true; }

 private:
  struct Contact {
    bool summary_sent = false;  // ours went out since the peer appeared
  };
  Micros summary_delay(const NodeView& node, Micros now, Random& rng) const;

  AntiEntropyParams params_;
  std::map<NodeId, Contact> contacts_;  // peers met, per current contact
  Micros last_sent_ = -1;
};

}  // namespace dissem::controllers
