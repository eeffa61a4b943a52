// What fraction of each publisher's first-pass data this node misses, for
// its beacons' reception reports (the publisher sizes its proactive
// redundancy from the worst one). Counted on fragment indices: a first-pass
// fragment at index i of a message, after index j of the same message, means
// i - j - 1 were lost in between; a message of the same group after message
// s, at sequence number s + g, means the g - 1 between were lost (each counted
// as one fragment: what a small message is, at least). Old evidence fades (the counts halve past
// a horizon), so the estimate follows a link that changes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "core/types.h"

namespace dissem::engine {

class ReceptionMeter {
 public:
  // A first-pass (not repair, not rebroadcast) fragment of `message` with
  // fragment index `index` arrived.
  void on_first_pass(const MessageId& message, std::uint32_t index, Micros now = 0);
  // Loss fraction for `publisher` once there is enough evidence.
  std::optional<double> loss(NodeId publisher) const;
  // Mean time between the publisher's consecutive first-pass fragments
  // (losses accounted for by the index difference), once measured.
  std::optional<Micros> fragment_interval(NodeId publisher) const;
  // Mean time between the first passes of the publisher's consecutive
  // messages (of one group; idle time included), once measured.
  std::optional<Micros> message_interval(NodeId publisher) const;
  const auto& publishers() const { return per_publisher_; }

  // Fragments expected before reporting, and the count past which old
  // evidence halves: enough that the publisher, which sizes its redundancy
  // from the worst of several noisy reports, is not misled by the noise.
  static constexpr double kMinEvidence = 64;
  static constexpr double kHorizon = 1024;

  struct PerPublisher {
    MessageId last;
    std::uint32_t last_index = 0;
    double expected = 0;
    double received = 0;
    Micros last_at = 0;
    double interval = 0;  // EWMA of the time per fragment index, microseconds
    double message_interval = 0;  // EWMA of the time per sequence number, microseconds
  };

 private:
  std::map<NodeId, PerPublisher> per_publisher_;
};

}  // namespace dissem::engine
