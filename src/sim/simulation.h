// Drives N engine::Nodes over the broadcast Medium in virtual time.
//
// Time: every Simulation time (now(), at(), run_until(), received_at) is
// virtual time since the start of the run, in microseconds. The engines are
// fed kSimEpoch + that (engine_now()), a fixed Unix time, so absolute expiry
// (MessageMeta::expiry_ms) behaves as it does in the daemon.
//
// Node driving: after every input to a node (datagram, timer, API call made
// through this class) the node's datagrams are polled into its radio queue
// while the radio has room, its deliveries and events are collected, and one
// timer event is kept pending at its next_deadline(). The engine's pacer
// decides when datagrams may leave; the radio only serialises them. If the
// radio queue is full the backlog stays in the engine and the node is polled
// again when one of its waiting datagrams goes on the air.
//
// Node ids and seeds: add_node() keeps EngineConfig::node_id and ::seed if
// the caller changed them from the EngineConfig defaults; otherwise node i
// gets id i + 1 and a seed derived from the simulation seed and i. Ids must be
// unique. Each node's cache is cache::Store::open(":memory:"), by default
// with node_store_options(): the real SQLite cache, in pages small enough
// that ten thousand nodes' caches fit in memory (an empty one takes ~40 KB
// instead of ~130 KB with the daemon's 16 KiB pages).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cache/store.h"
#include "engine/config.h"
#include "engine/node.h"
#include "core/types.h"
#include "sim/event_queue.h"
#include "sim/medium.h"

namespace dissem::sim {

// Virtual time zero, as Unix time for the engines: 2023-11-14T22:13:20Z.
constexpr Micros kSimEpoch = Micros{1'700'000'000} * kSeconds;

struct ReceivedMessage {
  engine::Delivery delivery;
  Micros received_at = 0;  // virtual time
};

struct ObservedEvent {
  engine::Event event;
  Micros at = 0;  // virtual time
};

struct SimStats {
  std::uint64_t events_run = 0;   // events taken from the queue
  std::uint64_t timer_events = 0;  // node timer events that fired (stale ones excluded)
  // A node's next_deadline() was still not in the future right after it was
  // given on_timer() and drained: an engine anomaly. Retried after kStallRetry.
  std::uint64_t timer_stalls = 0;
  std::uint64_t radio_full = 0;   // polls stopped because the radio queue was full
};

class Simulation {
 public:
  using Action = std::function<void(Simulation&)>;
  using Condition = std::function<bool(const Simulation&)>;
  using NodeAction = std::function<void(engine::Node&, Micros engine_now)>;

  static constexpr Micros kStallRetry = 1 * kMillis;
  static constexpr std::size_t kHostQueue = 2;  // datagrams handed to a radio ahead of its transmission

  Simulation(std::uint64_t seed, MediumConfig medium_config = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // --- building -----------------------------------------------------------
  // Adds a node whose radio sends at tx_capacity_bps; returns its index.
  std::size_t add_node(engine::EngineConfig config, std::uint64_t tx_capacity_bps,
                       const cache::StoreOptions& store_options = node_store_options());
  static cache::StoreOptions node_store_options();
  std::size_t node_count() const { return slots_.size(); }
  std::optional<std::size_t> index_of(NodeId id) const;

  void set_link(std::size_t from, std::size_t to, const LinkParams& params) { medium_.set_link(from, to, params); }
  // Node `node`'s radio sends at `bps` from its next datagram on (the host is not told).
  void set_capacity(std::size_t node, std::uint64_t bps) { medium_.set_capacity(node, bps); }
  // Every ordered pair, including nodes added later.
  void set_all_links(const LinkParams& params) { medium_.set_all_links(params); }

  engine::Node& node(std::size_t i);
  const engine::Node& node(std::size_t i) const;

  // --- API calls on a node at the current time (outputs drained after) ------
  MessageId publish(std::size_t node, const engine::PublishRequest& request);
  engine::SubscriptionId subscribe(std::size_t node, const std::string& group,
                                   const engine::SubscriptionOptions& options = {});
  void unsubscribe(std::size_t node, engine::SubscriptionId id);
  void request_history(std::size_t node, const std::string& group, std::uint32_t count);
  // Anything else: f(node, engine_now()), then the node is drained.
  void with_node(std::size_t node, const NodeAction& f);

  // --- running ------------------------------------------------------------
  // Runs `action` at virtual time t (>= now()). Every node the action
  // reaches through node(i) (non-const) or with_node() is serviced after it,
  // in index order, so actions may also call node(i) directly; the API calls
  // above service their node themselves. Other nodes are left alone: their
  // own timer events run them, so an action costs what it touches, not the
  // number of nodes.
  void at(Micros t, Action action);
  // Runs every event up to and including t, then sets now() = t.
  void run_until(Micros t);
  // Runs until done(*this) holds (checked after every event) or until
  // `limit`; returns done(*this). Stops at the event that made it true.
  bool run_until(const Condition& done, Micros limit);

  Micros now() const { return queue_.now(); }
  Micros engine_now() const { return kSimEpoch + queue_.now(); }

  // --- results ------------------------------------------------------------
  const std::vector<ReceivedMessage>& deliveries(std::size_t node) const;
  const std::vector<ObservedEvent>& events(std::size_t node) const;
  // The node of every delivery so far, in delivery order: deliveries(n)
  // grows by one for each entry n. Lets an observer follow only what changed.
  const std::vector<std::size_t>& delivery_log() const { return delivery_log_; }
  const MediumStats& medium() const { return medium_.stats(); }
  const Medium& medium_model() const { return medium_; }
  const SimStats& stats() const { return stats_; }
  // Medium trace (every offer, transmission and reception) folded with every
  // delivery (time, node, message id, payload hash).
  std::uint64_t trace_hash() const;

 private:
  struct Slot {
    std::unique_ptr<engine::Node> node;
    std::vector<ReceivedMessage> deliveries;
    std::vector<ObservedEvent> events;
    bool timer_pending = false;
    Micros timer_at = 0;
    std::uint64_t timer_generation = 0;  // a fired event with an older one is stale
    bool radio_full = false;             // last poll stopped at a full radio queue
  };

  Slot& slot(std::size_t i);
  const Slot& slot(std::size_t i) const;
  // Gives the node on_timer() if it is due, drains it and re-arms its timer.
  void service(std::size_t i);
  void drain(std::size_t i);
  void arm_timer(std::size_t i, bool timer_ran);
  void on_timer_event(std::size_t i, std::uint64_t generation);
  void run_one();
  // Inside an at() action: remembers a node the action reached.
  void touch(std::size_t i);

  std::uint64_t seed_;
  EventQueue queue_;
  Medium medium_;
  std::vector<Slot> slots_;
  std::unordered_map<NodeId, std::size_t> index_of_id_;
  std::vector<std::size_t> delivery_log_;
  bool in_action_ = false;
  std::vector<std::size_t> touched_;  // by the running at() action
  SimStats stats_;
  TraceHasher deliveries_trace_;
};

}  // namespace dissem::sim
