#include "sim/simulation.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/random.h"

namespace dissem::sim {
namespace {

// Sub-stream of the simulation seed used by the medium; nodes use 1 + index.
constexpr std::uint64_t kMediumStream = 0;
// A timer event carries its node index in the low bits of one word and the
// timer generation above them (2^40 re-arms per node).
constexpr unsigned kTimerIndexBits = 24;

}  // namespace

Simulation::Simulation(std::uint64_t seed, MediumConfig medium_config)
    : seed_(seed), medium_(queue_, derive_seed(seed, kMediumStream), medium_config) {
  medium_.set_receive_handler([this](std::size_t to, std::size_t, std::span<const std::uint8_t> bytes) {
    slot(to).node->on_datagram(bytes, engine_now());
    service(to);
  });
  // Only a node that stopped polling for lack of room needs the nudge.
  medium_.set_room_handler([this](std::size_t from) {
    if (slot(from).radio_full) service(from);
  });
}

Simulation::~Simulation() = default;

cache::StoreOptions Simulation::node_store_options() {
  cache::StoreOptions o;
  o.page_bytes = 4096;
  return o;
}

std::size_t Simulation::add_node(engine::EngineConfig config, std::uint64_t tx_capacity_bps,
                                 const cache::StoreOptions& store_options) {
  const std::size_t index = slots_.size();
  const engine::EngineConfig defaults;
  if (config.node_id == defaults.node_id) config.node_id = static_cast<NodeId>(index + 1);
  if (config.seed == defaults.seed) config.seed = derive_seed(seed_, 1 + index);
  if (index_of(config.node_id))
    throw std::invalid_argument("node id " + std::to_string(config.node_id) + " is already in use");

  if (index >= (std::size_t{1} << kTimerIndexBits))
    throw std::length_error("at most " + std::to_string(std::size_t{1} << kTimerIndexBits) + " nodes");
  const std::size_t medium_index = medium_.add_node(tx_capacity_bps);
  if (medium_index != index) throw std::logic_error("medium and simulation disagree on node indices");
  Slot s;
  s.node = std::make_unique<engine::Node>(config, cache::Store::open(":memory:", store_options), engine_now());
  slots_.push_back(std::move(s));
  index_of_id_.emplace(config.node_id, index);
  service(index);
  return index;
}

std::optional<std::size_t> Simulation::index_of(NodeId id) const {
  const auto it = index_of_id_.find(id);
  if (it == index_of_id_.end()) return std::nullopt;
  return it->second;
}

Simulation::Slot& Simulation::slot(std::size_t i) {
  if (i >= slots_.size())
    throw std::out_of_range("no node " + std::to_string(i) + " (" + std::to_string(slots_.size()) + " nodes)");
  return slots_[i];
}

const Simulation::Slot& Simulation::slot(std::size_t i) const {
  if (i >= slots_.size())
    throw std::out_of_range("no node " + std::to_string(i) + " (" + std::to_string(slots_.size()) + " nodes)");
  return slots_[i];
}

engine::Node& Simulation::node(std::size_t i) {
  engine::Node& n = *slot(i).node;
  touch(i);
  return n;
}

void Simulation::touch(std::size_t i) {
  if (in_action_) touched_.push_back(i);
}
const engine::Node& Simulation::node(std::size_t i) const { return *slot(i).node; }

// --- API calls ------------------------------------------------------------------

MessageId Simulation::publish(std::size_t i, const engine::PublishRequest& request) {
  MessageId id = node(i).publish(request, engine_now());
  service(i);
  return id;
}

engine::SubscriptionId Simulation::subscribe(std::size_t i, const std::string& group,
                                             const engine::SubscriptionOptions& options) {
  const engine::SubscriptionId id = node(i).subscribe(group, options, engine_now());
  service(i);
  return id;
}

void Simulation::unsubscribe(std::size_t i, engine::SubscriptionId id) {
  node(i).unsubscribe(id, engine_now());
  service(i);
}

void Simulation::request_history(std::size_t i, const std::string& group, std::uint32_t count) {
  node(i).request_history(group, count, engine_now());
  service(i);
}

void Simulation::with_node(std::size_t i, const NodeAction& f) {
  f(node(i), engine_now());
  service(i);
}

// --- node driving -----------------------------------------------------------------

void Simulation::service(std::size_t i) {
  engine::Node& n = *slot(i).node;
  const Micros t = engine_now();
  bool timer_ran = false;
  if (t >= n.next_deadline()) {
    n.on_timer(t);
    timer_ran = true;
  }
  drain(i);
  arm_timer(i, timer_ran);
}

void Simulation::drain(std::size_t i) {
  Slot& s = slot(i);
  const Micros t = engine_now();
  s.radio_full = false;
  for (;;) {
    // Hand the radio at most kHostQueue datagrams ahead: backlog stays in the
    // engine, where a repair can still be cancelled by the NTM when someone
    // else sends it first (a driver with byte queue limits does the same).
    const bool backpressure = medium_.config().radio_backpressure;
    if (backpressure && (!medium_.has_room(i) || medium_.waiting(i) >= kHostQueue)) {
      s.radio_full = true;
      ++stats_.radio_full;
      break;
    }
    auto d = s.node->poll_datagram(t);
    if (!d) break;
    medium_.offer(i, std::move(d->bytes), d->kind);
  }
  while (auto m = s.node->poll_delivery()) {
    deliveries_trace_.add(static_cast<std::uint64_t>(now()));
    deliveries_trace_.add(i);
    deliveries_trace_.add(m->meta.id.publisher);
    deliveries_trace_.add(m->meta.id.seq);
    deliveries_trace_.add_bytes(std::span<const std::uint8_t>(
        reinterpret_cast<const std::uint8_t*>(m->meta.id.group.data()), m->meta.id.group.size()));
    deliveries_trace_.add(content_hash(m->payload));
    s.deliveries.push_back(ReceivedMessage{std::move(*m), now()});
    delivery_log_.push_back(i);
  }
  while (auto e = s.node->poll_event()) s.events.push_back(ObservedEvent{*e, now()});
}

void Simulation::arm_timer(std::size_t i, bool timer_ran) {
  Slot& s = slot(i);
  const Micros deadline = s.node->next_deadline();
  Micros at = 0;
  if (deadline > engine_now()) {
    at = deadline - kSimEpoch;
  } else if (s.radio_full) {
    // Due only because the pacer would release more; the room handler
    // services the node when its radio can take another datagram.
    return;
  } else if (!timer_ran) {
    at = now();  // due at this instant: fire after the current event
  } else {
    ++stats_.timer_stalls;
    at = now() + kStallRetry;
  }
  if (s.timer_pending && s.timer_at <= at) return;
  s.timer_pending = true;
  s.timer_at = at;
  const std::uint64_t generation = ++s.timer_generation;
  // (this, one word) fits in std::function without an allocation per timer.
  const std::uint64_t key = (generation << kTimerIndexBits) | i;
  queue_.schedule(at, [this, key] { on_timer_event(key & ((1ULL << kTimerIndexBits) - 1), key >> kTimerIndexBits); });
}

void Simulation::on_timer_event(std::size_t i, std::uint64_t generation) {
  Slot& s = slot(i);
  if (generation != s.timer_generation) return;  // superseded by an earlier one
  s.timer_pending = false;
  ++stats_.timer_events;
  service(i);
}

// --- running --------------------------------------------------------------------------

void Simulation::at(Micros t, Action action) {
  queue_.schedule(t, [this, action = std::move(action)] {
    touched_.clear();
    in_action_ = true;
    try {
      action(*this);
    } catch (...) {
      in_action_ = false;
      throw;
    }
    in_action_ = false;
    std::vector<std::size_t> reached;
    reached.swap(touched_);
    std::sort(reached.begin(), reached.end());
    reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
    for (std::size_t i : reached) service(i);
  });
}

void Simulation::run_one() {
  queue_.run_next();
  ++stats_.events_run;
}

void Simulation::run_until(Micros t) {
  while (!queue_.empty() && queue_.next_time() <= t) run_one();
  if (queue_.now() < t) queue_.advance_to(t);
}

bool Simulation::run_until(const Condition& done, Micros limit) {
  if (done(*this)) return true;
  while (!queue_.empty() && queue_.next_time() <= limit) {
    run_one();
    if (done(*this)) return true;
  }
  if (queue_.now() < limit) queue_.advance_to(limit);
  return done(*this);
}

// --- results --------------------------------------------------------------------------

const std::vector<ReceivedMessage>& Simulation::deliveries(std::size_t i) const { return slot(i).deliveries; }
const std::vector<ObservedEvent>& Simulation::events(std::size_t i) const { return slot(i).events; }

std::uint64_t Simulation::trace_hash() const {
  TraceHasher h;
  h.add(medium_.trace_hash());
  h.add(deliveries_trace_.value());
  return h.value();
}

}  // namespace dissem::sim
