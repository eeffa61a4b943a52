// The engine's side of controllers::NodeView: what controllers may see of
// the node (controller_view.cpp).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "controllers/node_view.h"
#include "core/types.h"

namespace dissem::engine {

class NodeImpl;

class ControllerView final : public controllers::NodeView {
 public:
  explicit ControllerView(const NodeImpl& node) : node_(node) {}
  NodeId self() const override;
  Micros packet_time() const override;
  Micros serve_delay_max() const override;
  bool subscribed(const std::string& group) const override;
  std::span<const controllers::PeerInterest> interest(const std::string& group) const override;
  std::vector<controllers::NeighbourCount> neighbours() const override;
  std::vector<controllers::NeighbourCount> neighbours_of(NodeId peer) const override;
  std::uint64_t neighbourhood_version() const override;

 private:
  const NodeImpl& node_;
};

}  // namespace dissem::engine
