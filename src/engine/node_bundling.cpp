// Bundling (wire Bundle): frames smaller than a full fragment share one
// datagram, up to payload_size bytes. A datagram with room left for another
// frame like the last one waits up to engine.bundle_delay_ms for more;
// control frames (requests, beacons, summaries) never wait but take along
// whatever is held, and a frame that leaves no such room goes at once.
// Receivers handle the items one by one; a data frame that follows one of
// the same stream leans on it for its publisher and group (a "context"
// frame, wire/data_frame.h), so a bundle of one stream's small messages
// pays for the stream's identity once.
// The network key's trailer seals the datagram as a whole.
#include <algorithm>

#include "engine/node_impl.h"
#include "wire/frame_budget.h"

namespace dissem::engine {
namespace {

bool is_control(TrafficKind k) {
  return k == TrafficKind::Request || k == TrafficKind::Beacon || k == TrafficKind::Summary;
}

// Seals and paces a datagram whose frames were counted (by kind) at
// `counted` bytes: the framing and trailer are counted with its first kind.
OutgoingDatagram emit(NodeImpl& n, OutgoingDatagram d, std::size_t counted, Micros now) {
  n.security.seal_outgoing(d.bytes, now);
  n.pacer.on_sent(d.bytes.size(), now);
  n.own.paced.on_emitted(n.pacer.next_send_time());
  n.links.on_sent(d.bytes.size(), now);
  n.adaptation.on_sent(d.bytes.size() + n.config.per_datagram_overhead, now);
  n.stats.sent[static_cast<std::size_t>(d.kind)].bytes += d.bytes.size() - std::min(counted, d.bytes.size());
  return d;
}

OutgoingDatagram flush(NodeImpl& n, Micros now) {
  std::vector<OutgoingDatagram> frames = std::move(n.bundling.frames);
  n.bundling.frames.clear();
  n.bundling.bytes = 0;
  n.bundling.context = {};
  if (frames.size() == 1) {
    const std::size_t size = frames.front().bytes.size();
    return emit(n, std::move(frames.front()), size, now);
  }
  std::vector<std::vector<std::uint8_t>> items;
  items.reserve(frames.size());
  for (auto& f : frames) items.push_back(std::move(f.bytes));
  std::vector<std::size_t> sizes;
  auto bytes = wire::encode_bundle(items, &sizes);
  // Each frame was counted whole when it was taken: count what it saved back.
  std::size_t counted = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    n.stats.sent[static_cast<std::size_t>(frames[i].kind)].bytes -= items[i].size() - sizes[i];
    counted += sizes[i];
  }
  ++n.stats.bundles_sent;
  n.stats.bundled_items += frames.size();
  return emit(n, OutgoingDatagram{std::move(bytes), frames.front().kind}, counted, now);
}

}  // namespace

std::optional<OutgoingDatagram> NodeImpl::poll_datagram(Micros now) {
  if (silent) return std::nullopt;  // EMCON (node_emcon.cpp)
  if (!pacer.can_send(now)) return std::nullopt;
  update_pacing(now);
  if (config.bundle_delay == 0) {
    auto f = next_frame(now);
    if (!f) return std::nullopt;
    if (f->kind == TrafficKind::Beacon) adaptation.on_beacon_sent(now);
    const std::size_t size = f->bytes.size();
    return emit(*this, std::move(*f), size, now);
  }
  // Bounded: every pass takes a frame into the bundle or returns.
  for (;;) {
    std::optional<OutgoingDatagram> f = std::move(bundling.carry);
    bundling.carry.reset();
    if (!f) {
      f = next_frame(now);
      if (f && f->kind == TrafficKind::Beacon) adaptation.on_beacon_sent(now);  // goes now or next (carried)
    }
    if (!f) {
      if (bundling.frames.empty() || now - bundling.since < config.bundle_delay) return std::nullopt;  // wait for company
      return flush(*this, now);
    }
    // The Bundle's own prefix byte and each item's length count against the room.
    wire::DataContext context = bundling.context;
    const std::size_t item = wire::compact_in_bundle(f->bytes, context).size();
    const std::size_t cost = item + wire::bundle_item_overhead(item);
    if (!wire::FrameBudget(config.payload_size, wire::kBundlePrefixBytes + bundling.bytes).fits(cost)) {
      if (bundling.frames.empty()) {
        const std::size_t size = f->bytes.size();
        return emit(*this, std::move(*f), size, now);  // a full-size frame goes alone
      }
      bundling.carry = std::move(f);  // starts the next datagram
      return flush(*this, now);
    }
    if (bundling.frames.empty()) bundling.since = now;
    bundling.bytes += cost;
    bundling.context = std::move(context);
    const bool control = is_control(f->kind);
    bundling.frames.push_back(std::move(*f));
    // Waiting is for frames that leave room for another like them: one that
    // does not goes at once (with what is held), as control frames do.
    const bool no_room_for_another =
        !wire::FrameBudget(config.payload_size, wire::kBundlePrefixBytes + bundling.bytes).fits(cost);
    if (control || no_room_for_another || bundling.frames.size() == wire::kMaxBundleItems) return flush(*this, now);
  }
}

std::optional<Micros> NodeImpl::bundle_due() const {
  if (bundling.carry) return pacer.next_send_time();
  if (bundling.frames.empty()) return std::nullopt;
  return std::max(pacer.next_send_time(), bundling.since + config.bundle_delay);
}

}  // namespace dissem::engine
