// Probabilistic flooding: every node rebroadcasts each fragment it receives
// for the first time with probability p, after a random delay, until the
// fragment has been rebroadcast `hop_limit` times. Each node decides at most
// once per fragment (ForwardedMemory). With p = 1 this is plain flooding.
#pragma once

#include "controllers/forwarding/forwarded_memory.h"
#include "controllers/forwarding/forwarding_controller.h"

namespace dissem::controllers {

struct FloodingParams {
  double probability = 1.0;
  std::uint32_t hop_limit = 8;
  Micros delay_max = 0;  // 0: four packet times of this node's link
};

// The random delay before a rebroadcast, shared by the forwarding controllers:
// a few packet times, so that a neighbour's earlier rebroadcast of the same
// fragment reaches us (and our NTM) before our own turn.
Micros forward_delay(Micros configured_max, const NodeView& node, Random& rng);

class ProbabilisticFlooding final : public ForwardingController {
 public:
  explicit ProbabilisticFlooding(FloodingParams params) : params_(params) {}
  std::string_view name() const override { return "flooding"; }
  ForwardDecision on_new_fragment(const ReceivedFragment& fragment, const NodeView& node, Micros now,
                                  Random& rng) override;
  // A flooding node carries every group.
  bool relays(const std::string&, const NodeView&) const override { return true; }

 private:
  FloodingParams params_;
  ForwardedMemory decided_;
};

}  // namespace dissem::controllers
