// Follows the deliveries of a set of nodes as a run goes (the run checks
// completion after every event), counting distinct messages per node.
//
// Each update() reads only the deliveries made since the last one, through
// Simulation::delivery_log(): checking after every event costs what was
// delivered, not the number of nodes.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <set>
#include <vector>

#include "engine/node.h"
#include "sim/simulation.h"

namespace dissem::sim {

struct ReceiverOutcome {
  std::size_t node = 0;
  std::size_t messages = 0;  // distinct messages delivered
  std::uint64_t bytes = 0;
  bool complete = false;
  Micros completed_at = -1;  // delivery of the last missing message; -1 if incomplete
  std::size_t duplicate_deliveries = 0;
};

class CompletionTracker {
 public:
  // accept(node, delivery): whether the delivery counts towards the node's total.
  using Filter = std::function<bool(std::size_t, const engine::Delivery&)>;

  // nodes[k] is complete once it has expected[k] distinct accepted messages.
  CompletionTracker(const std::vector<std::size_t>& nodes, const std::vector<std::size_t>& expected, Filter accept);

  // Takes in the deliveries made since the last call; whether every node is complete.
  bool update(const Simulation& sim);

  std::vector<ReceiverOutcome> outcomes() const;

 private:
  static constexpr std::size_t kUntracked = std::numeric_limits<std::size_t>::max();
  struct Entry {
    ReceiverOutcome outcome;
    std::size_t expected = 0;
    std::size_t scanned = 0;
    std::set<MessageId> seen;
  };
  void take(Entry& e, const ReceivedMessage& m);

  Filter accept_;
  std::vector<Entry> entries_;
  std::vector<std::size_t> entry_of_node_;  // simulation node -> entries_ index, or kUntracked
  std::size_t log_read_ = 0;                // entries of the delivery log taken in
  std::size_t incomplete_ = 0;
};

}  // namespace dissem::sim
