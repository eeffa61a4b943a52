#include "link_model.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace dissem::emu {

LinkModel::LinkModel(ModelConfig config, AddressPlan addresses)
    : config_(std::move(config)),
      addresses_(addresses),
      radios_(config_.nodes),
      channel_(config_.nodes),
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
    half_duplex_.emplace(config_.nodes, config_.half_duplex);
  }

  links_.reserve(config_.nodes * config_.nodes);
  const LinkEffects initial = config_.default_connected ? LinkEffects{} : LinkEffects::disconnected();
  for (std::size_t i = 0; i < config_.nodes * config_.nodes; ++i) {
    links_.emplace_back(derive_seed(config_.seed, i + 1));
    links_.back().effects = initial;
    links_.back().gilbert = config_.gilbert;
  }
  for (const auto& g : config_.link_gilbert) {
    if (g.sender < 1 || g.sender > config_.nodes || g.receiver < 1 || g.receiver > config_.nodes ||
        g.sender == g.receiver)
      throw std::invalid_argument("a per-link Gilbert-Elliott setting names a link outside the nodes");
    link(g.sender, g.receiver).gilbert = g.params;
  }
}

void LinkModel::set_effects(NodeId sender, NodeId receiver, const LinkEffects& effects) {
  link(sender, receiver).effects = effects;
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

  std::optional<TimeNs> leaves;
  if (half_duplex_) {
    offer_half_duplex(now, sender, std::move(frame));
    return;
  }
  if (config_.shared_channel_bps > 0) {
    leaves = channel_.admit(now, sender - 1, wire_time(*frame, config_.shared_channel_bps), config_.queue_packets);
  } else if (const auto bps = config_.radio_bps[sender - 1]; bps > 0) {
    leaves = radios_[sender - 1].admit(now, wire_time(*frame, bps), config_.queue_packets);
  } else {
    enter_links(now, sender, frame);
    return;
  }
  if (!leaves) {
    ++sent.radio_queue_dropped;
    return;
  }
  push(*leaves, EventKind::leave_radio, sender, 0, std::move(frame));
}

void LinkModel::offer_half_duplex(TimeNs now, NodeId sender, FramePtr frame) {
  const TimeNs duration = wire_time(*frame, config_.half_duplex.bps);
  if (!half_duplex_->offer(now, sender, std::move(frame), duration, config_.queue_packets)) {
    ++counters_.node(sender).radio_queue_dropped;
    return;
  }
  schedule_half_duplex();
}

void LinkModel::schedule_half_duplex() {
  // Once on the air, a transmission's end is fixed: one pending event suffices.
  if (half_duplex_scheduled_) return;
  if (const auto end = half_duplex_->next_end()) {
    push(*end, EventKind::leave_half_duplex, 0, 0, nullptr);
    half_duplex_scheduled_ = true;
  }
}

void LinkModel::enter_links(TimeNs now, NodeId sender, const FramePtr& frame) {
  const FrameClass cls = classify_destination(*frame);
  if (cls == FrameClass::unicast) {
    enter_link(now, sender, *addresses_.owner_of(*frame), frame, cls);
    return;
  }
  for (NodeId receiver = 1; receiver <= config_.nodes; ++receiver)
    if (receiver != sender) enter_link(now, sender, receiver, frame, cls);
}

void LinkModel::enter_link(TimeNs now, NodeId sender, NodeId receiver, const FramePtr& frame, FrameClass cls) {
  LinkState& l = link(sender, receiver);
  LinkCounters& c = counters_.link(sender, receiver);
  ++c.offered;
  if (l.effects.passes_nothing()) {
    ++c.lost;
    return;
  }
  double loss = l.effects.loss_pct / 100;
  if (l.gilbert) loss = l.burst.step(l.rng, *l.gilbert, loss);
  if (l.rng.uniform() < loss) {
    ++c.lost;
    return;
  }

  TimeNs sent = now;
  const std::uint64_t bps = cls == FrameClass::unicast ? l.effects.unicast_bps : l.effects.broadcast_bps;
  if (bps > 0) {
    const auto end = l.queue.admit(now, wire_time(*frame, bps), config_.queue_packets);
    if (!end) {
      ++c.queue_dropped;
      return;
    }
    sent = *end;
  }
  const auto delay = [&] { return l.effects.latency + l.rng.uniform_int(0, l.effects.jitter); };
  push(sent + delay(), EventKind::deliver, sender, receiver, frame);
  if (l.rng.uniform() * 100 < l.effects.duplicate_pct) {
    ++c.duplicated;
    push(sent + delay(), EventKind::deliver, sender, receiver, frame);
  }
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
        enter_links(e.at, e.sender, e.frame);
        break;
      case EventKind::leave_half_duplex: {
        half_duplex_scheduled_ = false;
        HalfDuplexChannel::Transmission sent = half_duplex_->finish();
        schedule_half_duplex();
        enter_links(sent.end, sent.sender, sent.frame);
        break;
      }
      case EventKind::deliver:
        deliver(e);
        break;
    }
  }
}

void LinkModel::deliver(Event& e) {
  LinkCounters& c = counters_.link(e.sender, e.receiver);
  // A node on the air hears nothing (a half-duplex radio).
  if (half_duplex_ && half_duplex_->transmitting(e.receiver, e.at)) {
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
