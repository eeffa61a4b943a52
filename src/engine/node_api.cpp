// engine::Node, the engine's public face (node.h): each call handed to its
// NodeImpl (node_impl.h), which holds the state and the logic.
#include "engine/node.h"

#include <type_traits>

#include "engine/clock_offset.h"
#include "engine/node_impl.h"

namespace dissem::engine {
namespace {

// Every call into the node runs here: a write the cache refuses where no
// part of the node expected it (cache/store.h: the store is back at its last
// commit) cuts the tracker back to the cache and begins the outage, and the
// node goes on. An application's call then fails with a message that says
// so; a datagram or a timer has no caller to tell (the event does).
template <class Call>
auto guarded(NodeImpl& n, Micros now, bool tell_caller, Call&& call) -> decltype(call()) {
  try {
    return call();
  } catch (const cache::StoreError& e) {
    n.on_cache_failure(e.what(), now);
    if (tell_caller) throw PublishError(std::string("the cache could not write: ") + e.what());
    if constexpr (!std::is_void_v<decltype(call())>) return {};
  }
}

}  // namespace

Node::Node(const EngineConfig& config, std::unique_ptr<cache::Store> store, Micros now)
    : impl_(std::make_unique<NodeImpl>(config, std::move(store), now)) {}
Node::~Node() = default;

void Node::on_datagram(std::span<const std::uint8_t> bytes, Micros now) {
  guarded(*impl_, now, false, [&] {
    impl_->receiver.on_datagram(bytes, now);
    impl_->enforce_quota(now);
  });
}
void Node::on_datagrams(std::span<const std::span<const std::uint8_t>> batch, Micros now) {
  guarded(*impl_, now, false, [&] {
    impl_->receiver.on_datagrams(batch, now);
    impl_->enforce_quota(now);
  });
}
void Node::on_timer(Micros now) {
  guarded(*impl_, now, false, [&] { impl_->on_timer(now); });
}
MessageId Node::publish(const PublishRequest& request, Micros now) {
  return guarded(*impl_, now, true, [&] {
    const MessageId id = impl_->publisher.publish(request, now);
    impl_->enforce_quota(now);
    return id;
  });
}
MessageId Node::cancel(const CancelRequest& request, Micros now) {
  return guarded(*impl_, now, true, [&] { return impl_->publisher.cancel(request, now); });
}
SubscriptionId Node::subscribe(const std::string& group, const SubscriptionOptions& options, Micros now) {
  return guarded(*impl_, now, true, [&] { return impl_->subscribers.subscribe(group, options, now); });
}
void Node::unsubscribe(SubscriptionId id, Micros) { impl_->subscribers.unsubscribe(id); }
void Node::acknowledge(SubscriptionId id, const MessageId& message, Micros now) {
  guarded(*impl_, now, true, [&] { impl_->subscribers.acknowledge(id, message); });
}
bool Node::delete_subscription(const std::string& name, Micros now) {
  return guarded(*impl_, now, true, [&] { return impl_->subscribers.delete_subscription(name); });
}
void Node::request_history(const std::string& group, std::uint32_t count, Micros now) {
  impl_->subscribers.request_history(group, count, now);
}
void Node::set_silent(bool silent, Micros now) {
  guarded(*impl_, now, true, [&] { impl_->set_silent(silent, now); });
}
bool Node::silent() const { return impl_->silent; }
void Node::on_system_clock(Micros system_now, Micros now) {
  NodeImpl& n = *impl_;
  const Micros before = n.wall_clock.offset();
  const auto step = n.wall_clock.on_system_clock(system_now, now, n.peers.median_clock_offset(now - 2 * kClockWindow));
  // The neighbours' offsets were measured against the wall time as it was.
  if (const Micros moved = n.wall_clock.offset() - before; moved != 0) n.peers.shift_clock_offsets(moved);
  n.stats.clock_steps = static_cast<std::uint64_t>(n.wall_clock.steps());
  n.stats.clock_divergence = n.wall_clock.divergence();
  if (!step) return;
  Event e{Event::Kind::ClockStepped, 0, {}};
  e.clock_offset = step->divergence;
  e.detail = step->detail;
  n.events.push(std::move(e));
}
std::optional<OutgoingDatagram> Node::poll_datagram(Micros now) {
  return guarded(*impl_, now, false, [&] { return impl_->poll_datagram(now); });
}
std::optional<Delivery> Node::get(const MessageId& id, Micros now) {
  return guarded(*impl_, now, true, [&] { return impl_->get(id, now); });
}
std::vector<CachedMessage> Node::list(const ListRequest& request) { return impl_->list(request); }

std::optional<Delivery> Node::poll_delivery() { return impl_->subscribers.delivery().pop(); }
std::optional<Event> Node::poll_event() {
  impl_->report_cache_changes();
  return impl_->events.pop();
}

Micros Node::next_deadline() const { return impl_->next_deadline(); }
const Stats& Node::stats() const { return impl_->stats; }
NodeId Node::id() const { return impl_->config.node_id; }
const EngineConfig& Node::config() const { return impl_->config; }
cache::Store& Node::store() { return *impl_->store; }

std::size_t Node::incomplete_wanted() const {
  std::size_t n = 0;
  impl_->tracker.for_each_incomplete([&](const MessageId& id, const MessageState&) {
    if (impl_->subscribers.subscriptions().reliable(id.group)) ++n;
  });
  return n;
}

std::vector<Node::PeerSummary> Node::peers() const {
  std::vector<PeerSummary> out;
  for (const auto& [id, p] : impl_->peers.all()) out.push_back(PeerSummary{id, p.last_heard, p.srtt, p.estimated_loss()});
  return out;
}

std::vector<LinkSample> Node::links(Micros now) const {
  return impl_->links.samples(impl_->peers, impl_->reception, now);
}

void Node::set_forwarding_controller(std::unique_ptr<controllers::ForwardingController> c) {
  impl_->forwarding = std::move(c);
}
void Node::set_replication_controller(std::unique_ptr<controllers::ReplicationController> c) {
  impl_->replication = std::move(c);
}
void Node::set_deletion_controller(std::unique_ptr<controllers::DeletionController> c) {
  impl_->deletion = std::move(c);
}

// --- a gateway's networks ---------------------------------------------------

CarryOutcome Node::carry(const MessageMeta& meta, const std::vector<std::uint8_t>& stored, bool send, Micros now) {
  return guarded(*impl_, now, false, [&] {
    const CarryOutcome outcome = impl_->publisher.carry(meta, stored, send, now);
    if (outcome == CarryOutcome::Carried) impl_->enforce_quota(now);
    return outcome;
  });
}

std::optional<std::pair<MessageMeta, std::vector<std::uint8_t>>> Node::held_whole(const MessageId& id, Micros now) {
  auto whole = impl_->read_whole(id, now);
  if (!whole || whole->second.size() != whole->first.total_length) return std::nullopt;
  return whole;
}

std::set<std::string> Node::groups_wanted_by_neighbours() const {
  return impl_->interests.groups_of_others(impl_->config.node_id);
}

}  // namespace dissem::engine
