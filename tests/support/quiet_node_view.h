// A NodeView for controller unit tests: a node with no subscriptions and
// no neighbours' interests, fixed timings.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "controllers/node_view.h"

namespace dissem::testing {

class QuietView final : public controllers::NodeView {
 public:
  NodeId self() const override { return 10; }
  Micros packet_time() const override { return 10 * kMillis; }
  Micros serve_delay_max() const override { return 30 * kMillis; }
  bool subscribed(const std::string&) const override { return false; }
  std::span<const controllers::PeerInterest> interest(const std::string&) const override { return {}; }
  std::vector<controllers::NeighbourCount> neighbours() const override { return {}; }
  std::vector<controllers::NeighbourCount> neighbours_of(NodeId) const override { return {}; }
  std::uint64_t neighbourhood_version() const override { return 0; }
};

}  // namespace dissem::testing
