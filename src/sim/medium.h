// The broadcast medium: every datagram a node sends reaches each other node
// over an ordered (sender, receiver) link, or is lost on it.
//
// Model (MANE semantics, as in the paper's emulation): the link-effects
// model of link/, which the emulator (emulation/emu) drives too, so the
// two agree by construction:
//  * per ordered link (link::LinkSpec): enabled (an asymmetric link is one
//    direction disabled), reliability (Bernoulli loss per packet and per
//    receiver), optional Gilbert-Elliott burst loss on top, latency and
//    jitter (uniform in [0, jitter]), optional duplicates; drawn in
//    link_draws.h's order from the medium's one random stream;
//  * per sender: a transmitter of `tx_capacity_bps` that serialises one
//    datagram at a time, charging payload + per-packet overhead (IPv4+UDP),
//    fed by a drop-tail queue of `queue_packets` waiting datagrams
//    (link::Channel);
//  * shared-channel mode: a single transmitter for the whole medium, all
//    senders' datagrams contending in FIFO order of offer (each still
//    serialised at its sender's capacity, each sender still limited to
//    `queue_packets` waiting).
// A datagram reaches receivers at end of transmission + latency + jitter
// (so jitter may reorder a sender's datagrams, as netem does).
//
// Links are stored sparsely: a default for every pair (set_all_links) and,
// per sender, the pairs set apart from it, sorted by receiver. With links
// disabled by default (the multi-hop topologies), a transmission visits
// only the sender's own list: O(degree), not O(nodes). Receivers are always
// visited in ascending order, so random draws and traces do not depend on
// how the links are stored.
//
// The medium knows nothing of the engine: it moves byte strings tagged with
// a traffic category, so it is tested on its own.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "engine/stats.h"
#include "core/types.h"
#include "sim/event_queue.h"
#include "link/channel.h"
#include "link/gilbert_elliott.h"
#include "link/link_spec.h"
#include "core/random.h"

namespace dissem::sim {

// What one ordered link does (times in microseconds).
using LinkParams = link::LinkSpec;

struct MediumConfig {
  bool shared_channel = false;
  std::uint32_t per_packet_overhead = 28;  // IPv4 + UDP bytes below each datagram
  std::size_t queue_packets = 50;          // waiting datagrams per sender (not the one on the air)
  // true: the host hands its radio a datagram only when the radio has room
  // (a driver with byte queue limits; the backlog stays in the engine).
  // false: the host hands over everything its pacer releases and the radio's
  // drop-tail queue drops what it cannot hold, as a modem behind Ethernet
  // (and the emulator's links) do.
  bool radio_backpressure = true;
};

// 64-bit FNV-1a over a stream of fields: cheap, stable everywhere, and good
// enough to tell two traces apart.
class TraceHasher {
 public:
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (v >> (8 * i)) & 0xffu;
      h_ *= kPrime;
    }
  }
  void add_bytes(std::span<const std::uint8_t> bytes) {
    for (auto b : bytes) {
      h_ ^= b;
      h_ *= kPrime;
    }
  }
  std::uint64_t value() const { return h_; }

 private:
  static constexpr std::uint64_t kPrime = 0x100000001b3ULL;
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

inline std::uint64_t content_hash(std::span<const std::uint8_t> bytes) {
  TraceHasher h;
  h.add_bytes(bytes);
  return h.value();
}

// Counters of one node; MediumStats::total sums them over all nodes.
struct NodeTraffic {
  engine::TrafficCounter offered;        // handed to the radio by this node
  engine::TrafficCounter queue_dropped;  // refused: the radio queue was full
  // Put on the air by this node, UDP payload bytes, by category.
  std::array<engine::TrafficCounter, engine::kTrafficKinds> on_air{};
  std::uint64_t header_bytes = 0;  // per-packet overhead of those datagrams
  Micros airtime = 0;              // time this node's transmissions occupied
  engine::TrafficCounter received;  // datagrams that reached this node
  engine::TrafficCounter lost;      // datagrams lost on a link towards this node
  std::size_t max_queue = 0;        // most datagrams waiting at once

  std::uint64_t on_air_bytes() const;      // UDP payload, all categories
  std::uint64_t on_air_datagrams() const;
  std::uint64_t on_air_bytes(engine::TrafficKind k) const { return on_air[static_cast<std::size_t>(k)].bytes; }
};

struct MediumStats {
  std::vector<NodeTraffic> nodes;
  NodeTraffic total;
};

class Medium {
 public:
  // (receiver, sender, datagram): called at the reception time.
  using ReceiveHandler = std::function<void(std::size_t, std::size_t, std::span<const std::uint8_t>)>;
  // (sender): one of its waiting datagrams went on the air, so its queue has
  // room again. Only called from event handlers, never from inside offer().
  using RoomHandler = std::function<void(std::size_t)>;

  Medium(EventQueue& queue, std::uint64_t seed, MediumConfig config = {});

  // Adds a node; its links to and from existing nodes take the default
  // parameters (the last set_all_links(), else LinkParams{}). Returns its index.
  std::size_t add_node(std::uint64_t tx_capacity_bps);
  // The radio of `node` sends at `bps` from its next datagram on (a radio
  // that steps its rate down or up; nobody tells the host).
  void set_capacity(std::size_t node, std::uint64_t bps);
  std::size_t node_count() const { return capacity_.size(); }

  void set_link(std::size_t from, std::size_t to, const LinkParams& params);
  // Every ordered pair of distinct nodes, and nodes added later.
  void set_all_links(const LinkParams& params);
  const LinkParams& link(std::size_t from, std::size_t to) const;

  void set_receive_handler(ReceiveHandler handler) { on_receive_ = std::move(handler); }
  void set_room_handler(RoomHandler handler) { on_room_ = std::move(handler); }

  // Whether offer() from `from` would be queued rather than dropped.
  bool has_room(std::size_t from) const;
  std::size_t waiting(std::size_t from) const;
  // Hands a datagram to the sender's radio at the queue's current time.
  // Returns false (and counts a queue drop) when the queue is full.
  bool offer(std::size_t from, std::vector<std::uint8_t> bytes, engine::TrafficKind kind);

  // Serialisation time of a datagram of `bytes` UDP payload from `from`.
  Micros transmit_time(std::size_t from, std::size_t bytes) const;

  const MediumConfig& config() const { return config_; }
  const MediumStats& stats() const { return stats_; }
  std::uint64_t trace_hash() const { return trace_.value(); }

 private:
  struct Packet {
    std::size_t from = 0;
    std::shared_ptr<const std::vector<std::uint8_t>> bytes;  // shared by all receptions
    engine::TrafficKind kind = engine::TrafficKind::Data;
    std::uint64_t hash = 0;
  };
  using Transmitter = link::Channel<Packet>;
  // A reception on its way, waiting for its event. Events capture only
  // (this, index), which std::function holds without allocating.
  struct Arrival {
    std::size_t to = 0;
    std::size_t from = 0;
    std::shared_ptr<const std::vector<std::uint8_t>> bytes;
  };
  // A link set apart from the default, in its sender's list.
  struct Neighbour {
    std::size_t to = 0;
    LinkParams params;
  };

  std::size_t transmitter_of(std::size_t from) const { return config_.shared_channel ? 0 : from; }
  // The sender's index on its transmitter.
  std::size_t slot_of(std::size_t from) const { return config_.shared_channel ? from : 0; }
  void start_next(std::size_t tx, bool notify);
  void finish(std::size_t tx);
  void arrive(std::size_t arrival);
  // The reception (or loss) of `p` at `to` over link `l`.
  void reach(const Packet& p, std::size_t to, const LinkParams& l);
  void schedule_arrival(const Packet& p, std::size_t to, Micros at);
  void trace_reception(const Packet& p, std::size_t to, Micros at, bool delivered);
  void check_node(std::size_t i) const;

  EventQueue& queue_;
  Random rng_;
  MediumConfig config_;
  LinkParams default_link_;
  std::vector<std::uint64_t> capacity_;
  std::vector<std::vector<Neighbour>> links_;  // [from]: links set apart from default_link_, by `to`
  std::vector<Transmitter> transmitters_;
  // Burst state of the links with Gilbert-Elliott loss, by from << 32 | to.
  std::unordered_map<std::uint64_t, link::GilbertElliott> chains_;
  std::vector<Arrival> arrivals_;
  std::vector<std::size_t> free_arrivals_;
  ReceiveHandler on_receive_;
  RoomHandler on_room_;
  MediumStats stats_;
  TraceHasher trace_;
};

}  // namespace dissem::sim
