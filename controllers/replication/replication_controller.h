// Decision point: what to push to a peer that appeared or reconnected. The
// engine detects contacts (a peer heard for the first time, or again after
// it went silent), sends and receives the summaries this controller asks
// for, and carries out its push lists through the repair queue: paced,
// within the controller's share of the link, and dropped fragment by
// fragment if the Network Traffic Memory saw them on the air since the
// summary arrived (another node pushed or repaired them first).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "controllers/node_view.h"
#include "core/random.h"
#include "core/types.h"

namespace dissem::controllers {

// Sequence numbers [begin, end).
struct SeqRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool operator==(const SeqRange&) const = default;
};

struct HeldStream {
  StreamId stream;
  std::vector<SeqRange> held;  // ascending, disjoint
};

// A peer's summary, decoded.
struct PeerSummary {
  NodeId peer = 0;
  bool reply = false;
  bool truncated = false;  // streams not listed are unknown, not empty
  std::vector<std::string> wants;
  std::vector<HeldStream> streams;
};

// A complete message this node holds, as a push candidate.
struct HeldMessage {
  MessageId id;
  std::uint32_t bytes = 0;
  std::uint32_t priority = 0;
};

struct SummaryResponse {
  std::optional<Micros> reply_delay;  // answer with our own summary after this delay
  std::vector<MessageId> pushes;      // in the order to send them
};

class ReplicationController {
 public:
  virtual ~ReplicationController() = default;
  virtual std::string_view name() const = 0;
  // False: the engine skips replication entirely (no summaries, no pushes).
  virtual bool active() const { return true; }

  // `peer` appeared or reconnected. Returns the delay before our summary, or
  // nullopt for none. The engine sends one summary for contacts that fall
  // due together.
  virtual std::optional<Micros> on_contact(NodeId peer, const NodeView& node, Micros now, Random& rng) = 0;
  virtual void on_peer_silent(NodeId /*peer*/) {}
  // Our summary went out now.
  virtual void on_summary_sent(Micros /*now*/) {}
  // A peer's summary arrived. `held` lists our complete messages in the
  // groups the peer wants, by stream and sequence number.
  virtual SummaryResponse on_summary(const PeerSummary& summary, const std::vector<HeldMessage>& held,
                                     const NodeView& node, Micros now, Random& rng) = 0;
  // Pushes may use this share of the link capacity.
  virtual double budget_fraction() const { return 0.0; }
  // Whether what peers hold tells us what exists: messages a peer's summary
  // lists, or older than the newest its beacons advertise down to the oldest
  // it holds (beacons then say so), in groups we want, become known-missing
  // here and are requested like any gap, whatever the subscription's history.
  virtual bool learn_from_summaries() const { return false; }
};

// Default: no replication (the paper's fully connected set-up needs none).
class NoReplication final : public ReplicationController {
 public:
  std::string_view name() const override { return "none"; }
  bool active() const override { return false; }
  std::optional<Micros> on_contact(NodeId, const NodeView&, Micros, Random&) override { return std::nullopt; }
  SummaryResponse on_summary(const PeerSummary&, const std::vector<HeldMessage>&, const NodeView&, Micros,
                             Random&) override {
    return {};
  }
};

}  // namespace dissem::controllers
