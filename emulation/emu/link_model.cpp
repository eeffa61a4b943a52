#include "link_model.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "link/link_draws.h"

namespace dissem::emu {
namespace {

// An EEL entry in the link-effects model's terms; loss 100 % is a disabled link.
link::LinkSpec spec_of(const LinkEffects& e, const std::optional<GilbertParams>& burst) {
  link::LinkSpec s;
  s.enabled = !e.passes_nothing();
  s.reliability = 1 - e.loss_pct / 100;
  s.latency = e.latency;
  s.jitter = e.jitter;
  s.duplicate = e.duplicate_pct / 100;
  s.burst = burst;
  return s;
}

}  // namespace

LinkModel::LinkModel(ModelConfig config, AddressPlan addresses)
    : config_(std::move(config)),
      addresses_(addresses),
      counters_(config_.nodes) {
  if (config_.nodes < 1 || config_.nodes > 255) throw std::invalid_argument("nodes must be in 1..255");
  if (addresses_.nodes() != config_.nodes) throw std::invalid_argument("address plan is for another node count");
  if (!config_.radio_bps.empty() && config_.radio_bps.size() != config_.nodes)
    throw std::invalid_argument("radio_bps needs one entry per node");
  if (config_.radio_bps.empty()) config_.radio_bps.assign(config_.nodes, 0);
  if (config_.shared_channel_bps > 0)
    for (auto bps : config_.radio_bps)
      if (bps > 0) throw std::invalid_argument("a shared channel excludes per-node radio rates");

  if (config_.half_duplex.bps > 0) {
    if (config_.shared_channel_bps > 0) throw std::invalid_argument("a half-duplex channel excludes a shared channel");
    for (auto bps : config_.radio_bps)
      if (bps > 0) throw std::invalid_argument("a half-duplex channel excludes per-node radio rates");
    radios_.emplace_back(config_.nodes, config_.queue_packets,
                         link::ChannelParams{link::Turns::round_robin, config_.half_duplex.turnaround,
                                             config_.half_duplex.max_hold});
  } else if (config_.shared_channel_bps > 0) {
    radios_.emplace_back(config_.nodes, config_.queue_packets);
  } else {
    for (std::size_t i = 0; i < config_.nodes; ++i) radios_.emplace_back(1, config_.queue_packets);
  }

  if (config_.gilbert) config_.gilbert->check();
  links_.reserve(config_.nodes * config_.nodes);
  const LinkEffects initial = config_.default_connected ? LinkEffects{} : LinkEffects::disconnected();
  for (std::size_t i = 0; i < config_.nodes * config_.nodes; ++i) {
    links_.emplace_back(derive_seed(config_.seed, i + 1));
    links_.back().spec = spec_of(initial, config_.gilbert);
    links_.back().effects = initial;
  }
  for (const auto& g : config_.link_gilbert) {
    if (g.sender < 1 || g.sender > config_.nodes || g.receiver < 1 || g.receiver > config_.nodes ||
        g.sender == g.receiver)
      throw std::invalid_argument("a per-link Gilbert-Elliott setting names a link outside the nodes");
    g.params.check();
    link(g.sender, g.receiver).spec.burst = g.params;
  }
}

void LinkModel::set_effects(NodeId sender, NodeId receiver, const LinkEffects& effects) {
  LinkState& l = link(sender, receiver);
  l.effects = effects;
  l.spec = spec_of(effects, l.spec.burst);
}

void LinkModel::schedule_effects(TimeNs at, NodeId sender, NodeId receiver, const LinkEffects& effects) {
  effect_changes_.push_back({sender, receiver, effects});
  push(at, EventKind::change_effects, sender, receiver, nullptr, effect_changes_.size() - 1);
}

void LinkModel::push(TimeNs at, EventKind kind, NodeId sender, NodeId receiver, FramePtr frame,
                     std::size_t change) {
  events_.push_back(Event{at, next_order_++, kind, sender, receiver, std::move(frame), change});
  std::push_heap(events_.begin(), events_.end(), Later{});
}

TimeNs LinkModel::wire_time(const Frame& frame, std::uint64_t bps) const {
  return serialisation_time(frame.size() + config_.overhead_bytes, bps);
}

void LinkModel::offer(TimeNs now, NodeId sender, FramePtr frame) {
  // Effects changes and radio departures due by now come first.
  advance(now);

  NodeCounters& sent = counters_.node(sender);
  ++sent.frames_sent;
  sent.bytes_sent += frame->size();
  if (frame->size() < kEthernetHeaderBytes) {
    ++sent.runt_dropped;
    return;
  }
  switch (classify_destination(*frame)) {
    case FrameClass::broadcast: ++sent.broadcast_sent; break;
    case FrameClass::multicast: ++sent.multicast_sent; break;
    case FrameClass::unicast: {
      ++sent.unicast_sent;
      const auto owner = addresses_.owner_of(*frame);
      if (!owner || *owner == sender) {
        ++sent.unknown_unicast_dropped;
        return;
      }
      break;
    }
  }

  if (!has_radio(sender)) {
    enter_links(now, now, sender, frame);
    return;
  }
  const std::size_t radio = radio_of(sender);
  if (!radios_[radio].offer(slot_of(sender), std::move(frame))) {
    ++sent.radio_queue_dropped;
    return;
  }
  start_radio(now, radio);
}

bool LinkModel::has_radio(NodeId sender) const { return one_radio() || config_.radio_bps[sender - 1] > 0; }

std::uint64_t LinkModel::rate_of_radio(std::size_t radio) const {
  if (config_.half_duplex.bps > 0) return config_.half_duplex.bps;
  if (config_.shared_channel_bps > 0) return config_.shared_channel_bps;
  return config_.radio_bps[radio];
}

void LinkModel::start_radio(TimeNs now, std::size_t radio) {
  const std::uint64_t bps = rate_of_radio(radio);
  const auto* t = radios_[radio].start(now, [&](std::size_t, const FramePtr& f) { return wire_time(*f, bps); });
  if (t != nullptr) push(t->end, EventKind::leave_radio, 0, 0, nullptr, radio);
}

void LinkModel::leave_radio(const Event& e) {
  Radio::Transmission sent = radios_[e.change].finish();
  start_radio(sent.end, e.change);
  enter_links(sent.start, sent.end, sender_on(e.change, sent.sender), sent.payload);
}

void LinkModel::enter_links(TimeNs on_air, TimeNs now, NodeId sender, const FramePtr& frame) {
  const FrameClass cls = classify_destination(*frame);
  if (cls == FrameClass::unicast) {
    enter_link(on_air, now, sender, *addresses_.owner_of(*frame), frame, cls);
    return;
  }
  for (NodeId receiver = 1; receiver <= config_.nodes; ++receiver)
    if (receiver != sender) enter_link(on_air, now, sender, receiver, frame, cls);
}

void LinkModel::enter_link(TimeNs on_air, TimeNs now, NodeId sender, NodeId receiver, const FramePtr& frame,
                           FrameClass cls) {
  LinkState& l = link(sender, receiver);
  LinkCounters& c = counters_.link(sender, receiver);
  ++c.offered;
  if (!link::survives(l.rng, l.spec, &l.chain)) {
    ++c.lost;
    return;
  }
  const std::uint64_t bps = cls == FrameClass::unicast ? l.effects.unicast_bps : l.effects.broadcast_bps;
  if (bps == 0) {
    push_deliveries(now, sender, receiver, draw_copy(sender, receiver, frame, 0, on_air));
    return;
  }
  if (!l.queue) l.queue = std::make_unique<link::Channel<LinkCopy>>(1, config_.queue_packets);
  if (!l.queue->has_room(0)) {
    ++c.queue_dropped;
    return;
  }
  l.queue->offer(0, draw_copy(sender, receiver, frame, bps, on_air));
  start_link(now, sender, receiver);
}

// The delays of a copy that survived, and whether it is duplicated (link_draws.h's order).
LinkModel::LinkCopy LinkModel::draw_copy(NodeId sender, NodeId receiver, FramePtr frame, std::uint64_t bps,
                                         TimeNs on_air) {
  LinkState& l = link(sender, receiver);
  LinkCopy copy{std::move(frame), bps, on_air, link::delay(l.rng, l.spec), std::nullopt};
  if (link::duplicated(l.rng, l.spec)) {
    ++counters_.link(sender, receiver).duplicated;
    copy.duplicate_delay = link::delay(l.rng, l.spec);
  }
  return copy;
}

// Cut-through: the link carries a copy from when both the copy is on the air
// and the link is free, and the copy cannot arrive before it has left the
// radio. With the link at least as fast as the radio, an idle link adds no
// time; a slower one is the bottleneck, and one serialisation at its rate is
// all the copy pays (never the radio's and the link's one after the other).
void LinkModel::start_link(TimeNs now, NodeId sender, NodeId receiver) {
  LinkState& l = link(sender, receiver);
  const auto* t = l.queue->start(now, [this, now, &l](std::size_t, const LinkCopy& copy) {
    const TimeNs from = std::max(copy.on_air, l.free_at);
    return std::max<TimeNs>(0, from + wire_time(*copy.frame, copy.bps) - now);
  });
  if (t != nullptr) push(t->end, EventKind::leave_link, sender, receiver, nullptr);
}

void LinkModel::leave_link(const Event& e) {
  LinkState& l = link(e.sender, e.receiver);
  auto sent = l.queue->finish();
  l.free_at = sent.end;
  start_link(sent.end, e.sender, e.receiver);
  push_deliveries(sent.end, e.sender, e.receiver, sent.payload);
}

void LinkModel::push_deliveries(TimeNs sent, NodeId sender, NodeId receiver, const LinkCopy& copy) {
  push(sent + copy.delay, EventKind::deliver, sender, receiver, copy.frame);
  if (copy.duplicate_delay) push(sent + *copy.duplicate_delay, EventKind::deliver, sender, receiver, copy.frame);
}

void LinkModel::advance(TimeNs now) {
  // Bounded: each event is popped once, and the events an event makes are due
  // no earlier than it, so the loop ends when the heap's top is past `now`.
  while (!events_.empty() && events_.front().at <= now) {
    std::pop_heap(events_.begin(), events_.end(), Later{});
    Event e = std::move(events_.back());
    events_.pop_back();
    switch (e.kind) {
      case EventKind::change_effects: {
        const EffectChange& change = effect_changes_[e.change];
        set_effects(change.sender, change.receiver, change.effects);
        ++effect_changes_applied_;
        break;
      }
      case EventKind::leave_radio:
        leave_radio(e);
        break;
      case EventKind::leave_link:
        leave_link(e);
        break;
      case EventKind::deliver:
        deliver(e);
        break;
    }
  }
}

void LinkModel::deliver(Event& e) {
  LinkCounters& c = counters_.link(e.sender, e.receiver);
  // A node on the air hears nothing (a half-duplex radio).
  if (config_.half_duplex.bps > 0 && radios_.front().transmitting(e.receiver - 1, e.at)) {
    ++c.half_duplex_dropped;
    return;
  }
  ++c.delivered;
  c.bytes_delivered += e.frame->size();
  NodeCounters& r = counters_.node(e.receiver);
  ++r.frames_received;
  r.bytes_received += e.frame->size();
  due_.push_back(Delivery{e.at, e.sender, e.receiver, std::move(e.frame)});
}

void LinkModel::poll(TimeNs now, std::vector<Delivery>& out) {
  advance(now);
  for (auto& d : due_) out.push_back(std::move(d));
  due_.clear();
}

std::optional<TimeNs> LinkModel::next_deadline() const {
  if (!due_.empty()) return due_.front().due;
  if (events_.empty()) return std::nullopt;
  return events_.front().at;
}

}  // namespace dissem::emu
