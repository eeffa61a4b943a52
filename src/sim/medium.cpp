#include "sim/medium.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "link/link_draws.h"

namespace dissem::sim {
namespace {

// Tags that keep the trace fields of different event types apart.
constexpr std::uint64_t kTraceOffer = 1;
constexpr std::uint64_t kTraceStart = 2;
constexpr std::uint64_t kTraceReception = 3;

}  // namespace

std::uint64_t NodeTraffic::on_air_bytes() const {
  std::uint64_t n = 0;
  for (const auto& c : on_air) n += c.bytes;
  return n;
}

std::uint64_t NodeTraffic::on_air_datagrams() const {
  std::uint64_t n = 0;
  for (const auto& c : on_air) n += c.datagrams;
  return n;
}

Medium::Medium(EventQueue& queue, std::uint64_t seed, MediumConfig config)
    : queue_(queue), rng_(seed), config_(config) {
  if (config_.shared_channel) transmitters_.emplace_back(0, config_.queue_packets);
}

void Medium::set_capacity(std::size_t node, std::uint64_t bps) {
  check_node(node);
  if (bps == 0) throw std::invalid_argument("transmit capacity must be > 0 bit/s");
  capacity_[node] = bps;
}

std::size_t Medium::add_node(std::uint64_t tx_capacity_bps) {
  if (tx_capacity_bps == 0) throw std::invalid_argument("transmit capacity must be > 0 bit/s");
  const std::size_t index = capacity_.size();
  capacity_.push_back(tx_capacity_bps);
  links_.emplace_back();
  if (config_.shared_channel)
    transmitters_[0].add_sender();
  else
    transmitters_.emplace_back(1, config_.queue_packets);
  stats_.nodes.emplace_back();
  return index;
}

void Medium::check_node(std::size_t i) const {
  if (i >= capacity_.size())
    throw std::out_of_range("no node " + std::to_string(i) + " on the medium (" +
                            std::to_string(capacity_.size()) + " nodes)");
}

void Medium::set_link(std::size_t from, std::size_t to, const LinkParams& params) {
  check_node(from);
  check_node(to);
  if (from == to) throw std::invalid_argument("a node has no link to itself");
  params.check();
  auto& row = links_[from];
  const auto it = std::lower_bound(row.begin(), row.end(), to, [](const Neighbour& n, std::size_t t) { return n.to < t; });
  if (it != row.end() && it->to == to)
    it->params = params;
  else
    row.insert(it, Neighbour{to, params});
}

void Medium::set_all_links(const LinkParams& params) {
  params.check();
  default_link_ = params;
  for (auto& row : links_) row.clear();
}

const LinkParams& Medium::link(std::size_t from, std::size_t to) const {
  check_node(from);
  check_node(to);
  const auto& row = links_[from];
  const auto it = std::lower_bound(row.begin(), row.end(), to, [](const Neighbour& n, std::size_t t) { return n.to < t; });
  return it != row.end() && it->to == to ? it->params : default_link_;
}

bool Medium::has_room(std::size_t from) const {
  check_node(from);
  return transmitters_[transmitter_of(from)].has_room(slot_of(from));
}

std::size_t Medium::waiting(std::size_t from) const {
  check_node(from);
  return transmitters_[transmitter_of(from)].waiting(slot_of(from));
}

Micros Medium::transmit_time(std::size_t from, std::size_t bytes) const {
  check_node(from);
  // Rounded up, as the engine's pacer does, so a node paced at exactly the
  // capacity never finds its radio still busy.
  return link::transmit_time(static_cast<std::uint64_t>(bytes) + config_.per_packet_overhead, capacity_[from], kSeconds);
}

bool Medium::offer(std::size_t from, std::vector<std::uint8_t> bytes, engine::TrafficKind kind) {
  check_node(from);
  Packet p;
  p.from = from;
  p.kind = kind;
  p.hash = content_hash(bytes);
  const std::size_t size = bytes.size();
  NodeTraffic& node = stats_.nodes[from];
  node.offered.add(size);
  stats_.total.offered.add(size);

  const bool accepted = has_room(from);
  trace_.add(kTraceOffer);
  trace_.add(static_cast<std::uint64_t>(queue_.now()));
  trace_.add(from);
  trace_.add(size);
  trace_.add(p.hash);
  trace_.add(accepted ? 1 : 0);
  if (!accepted) {
    node.queue_dropped.add(size);
    stats_.total.queue_dropped.add(size);
    return false;
  }
  p.bytes = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
  const std::size_t tx = transmitter_of(from);
  transmitters_[tx].offer(slot_of(from), std::move(p));
  const std::size_t waiting = transmitters_[tx].waiting(slot_of(from));
  node.max_queue = std::max(node.max_queue, waiting);
  stats_.total.max_queue = std::max(stats_.total.max_queue, waiting);
  // The sender is the caller: no room notification for a datagram it just offered.
  start_next(tx, false);
  return true;
}

void Medium::start_next(std::size_t tx, bool notify) {
  // The duration follows the sender's capacity when the datagram starts.
  const auto* t = transmitters_[tx].start(
      queue_.now(), [this](std::size_t, const Packet& p) { return transmit_time(p.from, p.bytes->size()); });
  if (t == nullptr) return;
  const Packet& p = t->payload;
  const std::size_t size = p.bytes->size();
  const Micros duration = t->end - t->start;
  for (NodeTraffic* n : {&stats_.nodes[p.from], &stats_.total}) {
    n->on_air[static_cast<std::size_t>(p.kind)].add(size);
    n->header_bytes += config_.per_packet_overhead;
    n->airtime += duration;
  }
  trace_.add(kTraceStart);
  trace_.add(static_cast<std::uint64_t>(queue_.now()));
  trace_.add(p.from);
  trace_.add(size);
  trace_.add(p.hash);

  const std::size_t from = p.from;
  queue_.schedule(t->end, [this, tx] { finish(tx); });
  if (notify && on_room_) on_room_(from);
}

void Medium::finish(std::size_t tx) {
  const Packet p = transmitters_[tx].finish().payload;
  const auto& row = links_[p.from];
  if (default_link_.enabled) {
    // Every node may hear the sender: walk them all, taking the sender's own
    // links where it has them.
    auto own = row.begin();
    for (std::size_t to = 0; to < node_count(); ++to) {
      if (own != row.end() && own->to == to) {
        if (own->params.enabled) reach(p, to, own->params);
        ++own;
      } else if (to != p.from) {
        reach(p, to, default_link_);
      }
    }
  } else {
    for (const Neighbour& n : row)
      if (n.params.enabled) reach(p, n.to, n.params);
  }
  start_next(tx, true);
}

void Medium::reach(const Packet& p, std::size_t to, const LinkParams& l) {
  link::GilbertElliott* chain = l.burst ? &chains_[(static_cast<std::uint64_t>(p.from) << 32) | to] : nullptr;
  const bool delivered = link::survives(rng_, l, chain);
  trace_reception(p, to, delivered ? queue_.now() + link::delay(rng_, l) : queue_.now() + l.latency, delivered);
  if (delivered && link::duplicated(rng_, l)) trace_reception(p, to, queue_.now() + link::delay(rng_, l), true);
}

// Records one copy's fate and schedules its arrival if it survived.
void Medium::trace_reception(const Packet& p, std::size_t to, Micros at, bool delivered) {
  const std::size_t size = p.bytes->size();
  trace_.add(kTraceReception);
  trace_.add(static_cast<std::uint64_t>(at));
  trace_.add(p.from);
  trace_.add(to);
  trace_.add(size);
  trace_.add(p.hash);
  trace_.add(delivered ? 1 : 0);
  if (!delivered) {
    stats_.nodes[to].lost.add(size);
    stats_.total.lost.add(size);
    return;
  }
  stats_.nodes[to].received.add(size);
  stats_.total.received.add(size);
  schedule_arrival(p, to, at);
}

void Medium::schedule_arrival(const Packet& p, std::size_t to, Micros at) {
  std::size_t k = arrivals_.size();
  if (free_arrivals_.empty()) {
    arrivals_.emplace_back();
  } else {
    k = free_arrivals_.back();
    free_arrivals_.pop_back();
  }
  arrivals_[k] = Arrival{to, p.from, p.bytes};
  queue_.schedule(at, [this, k] { arrive(k); });
}

void Medium::arrive(std::size_t k) {
  const Arrival a = std::move(arrivals_[k]);
  arrivals_[k] = Arrival{};
  free_arrivals_.push_back(k);
  if (on_receive_) on_receive_(a.to, a.from, std::span<const std::uint8_t>(*a.bytes));
}

}  // namespace dissem::sim
