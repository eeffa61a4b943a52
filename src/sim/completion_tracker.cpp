#include "sim/completion_tracker.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace dissem::sim {

CompletionTracker::CompletionTracker(const std::vector<std::size_t>& nodes, const std::vector<std::size_t>& expected,
                                     Filter accept)
    : accept_(std::move(accept)) {
  if (nodes.size() != expected.size()) throw std::invalid_argument("one expected count per tracked node");
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    Entry e;
    e.outcome.node = nodes[k];
    e.expected = expected[k];
    e.outcome.complete = e.expected == 0;
    if (e.outcome.complete) e.outcome.completed_at = 0;
    else ++incomplete_;
    if (entry_of_node_.size() <= nodes[k]) entry_of_node_.resize(nodes[k] + 1, kUntracked);
    if (entry_of_node_[nodes[k]] != kUntracked) throw std::invalid_argument("a node is tracked twice");
    entry_of_node_[nodes[k]] = k;
    entries_.push_back(std::move(e));
  }
}

bool CompletionTracker::update(const Simulation& sim) {
  const auto& log = sim.delivery_log();
  for (; log_read_ < log.size(); ++log_read_) {
    const std::size_t node = log[log_read_];
    if (node >= entry_of_node_.size() || entry_of_node_[node] == kUntracked) continue;
    Entry& e = entries_[entry_of_node_[node]];
    // The log names the node once per delivery, in order.
    take(e, sim.deliveries(node)[e.scanned++]);
  }
  return incomplete_ == 0;
}

void CompletionTracker::take(Entry& e, const ReceivedMessage& m) {
  if (!accept_(e.outcome.node, m.delivery)) return;
  if (!e.seen.insert(m.delivery.meta.id).second) {
    ++e.outcome.duplicate_deliveries;
    return;
  }
  ++e.outcome.messages;
  e.outcome.bytes += m.delivery.payload.size();
  if (!e.outcome.complete && e.outcome.messages >= e.expected) {
    e.outcome.complete = true;
    e.outcome.completed_at = m.received_at;
    --incomplete_;
  }
}

std::vector<ReceiverOutcome> CompletionTracker::outcomes() const {
  std::vector<ReceiverOutcome> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.push_back(e.outcome);
  return out;
}

}  // namespace dissem::sim
