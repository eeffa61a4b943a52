#include "engine/replication/replicator.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "wire/control_entry_sizes.h"

namespace dissem::engine {
namespace {

// Our complete, unexpired messages by stream, as sequence-number ranges.
std::map<StreamId, SeqRanges> holdings(const MessageTracker& tracker, const std::set<std::string>& groups,
                                       Micros wall) {
  std::map<StreamId, SeqRanges> held;
  tracker.for_each_complete([&](const MessageMeta& m) {
    if (groups.contains(m.id.group) && !m.expired_at(wall)) held[stream_of(m.id)].add(m.id.seq, m.id.seq + 1);
  });
  return held;
}

controllers::PeerSummary peer_summary(const wire::Summary& s) {
  controllers::PeerSummary peer;
  peer.peer = s.node();
  peer.reply = s.reply();
  peer.truncated = s.truncated();
  peer.wants.assign(s.wants().begin(), s.wants().end());
  for (const auto& st : s.streams()) {
    controllers::HeldStream h{StreamId{st.group(), st.publisher()}, {}};
    for (int i = 0; i + 1 < st.held().size(); i += 2) h.held.push_back({st.held(i), st.held(i + 1)});
    peer.streams.push_back(std::move(h));
  }
  return peer;
}

}  // namespace

std::optional<Micros> Replicator::on_contact(NodeId peer, Micros now) {
  if (!active()) return std::nullopt;
  const auto delay = from_.controller->on_contact(peer, from_.view, now, node_.rng);
  if (delay) schedule_summary(now + *delay, false);
  return delay;
}

void Replicator::schedule_summary(Micros due, bool reply) {
  if (!pushes_.summary_due || due < *pushes_.summary_due) pushes_.summary_due = due;
  pushes_.summary_reply = pushes_.summary_reply || reply;
}

std::vector<std::uint8_t> Replicator::build_summary(const std::vector<std::string>& wanted_groups, Micros now) {
  wire::Summary s;
  s.set_node(node_.config.node_id);
  s.set_reply(pushes_.summary_reply);
  pushes_.summary_due.reset();
  pushes_.summary_reply = false;

  // One datagram: wants first (without them nothing is pushed to us), then
  // as many streams as fit; the rest are marked unknown, not empty.
  wire::FrameBudget budget(node_.config.payload_size, wire::summary_header_size());
  std::set<std::string> wanted;
  for (const auto& g : wanted_groups) {
    if (!budget.take(wire::summary_want_size(g))) break;
    s.add_wants(g);
    wanted.insert(g);
  }
  for (const auto& [stream, ranges] : holdings(node_.tracker, wanted, node_.wall(now))) {
    std::size_t held = 0;
    for (const auto& [b, e] : ranges.ranges()) held += wire::packed_pair(b, e);
    if (!budget.take(wire::summary_stream_size(stream.group, held, budget.limit()))) {
      s.set_truncated(true);
      break;
    }
    auto* h = s.add_streams();
    h->set_group(stream.group);
    h->set_publisher(stream.publisher);
    for (const auto& [b, e] : ranges.ranges()) {
      h->add_held(b);
      h->add_held(e);
    }
  }
  ++node_.stats.summaries_sent;
  from_.controller->on_summary_sent(now);
  return wire::encode(s);
}

std::optional<Replicator::Pull> Replicator::on_summary(const wire::Summary& s, Micros now) {
  if (!active()) return std::nullopt;
  controllers::PeerSummary peer = peer_summary(s);

  // Push candidates: our complete messages in the groups it wants, in id
  // order (the tracker's own order is a hash table's).
  const std::set<std::string> wants(peer.wants.begin(), peer.wants.end());
  std::vector<controllers::HeldMessage> held;
  node_.tracker.for_each_complete([&](const MessageMeta& m) {
    if (wants.contains(m.id.group) && !m.expired_at(node_.wall(now))) held.push_back({m.id, m.total_length, m.priority});
  });
  std::sort(held.begin(), held.end(), [](const auto& a, const auto& b) { return a.id < b.id; });

  const auto response = from_.controller->on_summary(peer, held, from_.view, now, node_.rng);
  if (response.reply_delay) schedule_summary(now + std::max<Micros>(*response.reply_delay, 0), true);
  if (!response.pushes.empty()) {
    // One random delay for the batch keeps the controller's order.
    const Micros due = now + node_.rng.uniform_int(0, from_.timing.serve_delay_max);
    const Micros since = now - from_.timing.in_flight_slack;
    for (const auto& id : response.pushes) pushes_.pending.emplace(due, PushTask{id, since});
  }
  if (!from_.controller->learn_from_summaries()) return std::nullopt;
  // When the peer pushes to us (this is its answer to our summary, or we
  // answer it now), requests wait until its first pushes could have
  // arrived, then fill their losses; a request for a fragment still in the
  // peer's push queue turns it into a repair, never a second copy.
  Pull pull{now, std::move(peer.streams)};
  if (peer.reply || response.reply_delay)
    pull.not_before += response.reply_delay.value_or(0) + from_.timing.serve_delay_max + from_.timing.rtt;
  return pull;
}

void Replicator::start_due_pushes(Micros now) {
  const EngineConfig& config = node_.config;
  while (!pushes_.pending.empty() && pushes_.pending.begin()->first <= now) {
    const PushTask task = pushes_.pending.begin()->second;
    pushes_.pending.erase(pushes_.pending.begin());
    const MessageState* st = node_.tracker.find(task.message);
    if (st == nullptr || !st->complete || !st->meta || st->meta->expired_at(node_.wall(now))) continue;
    auto fragments = node_.store->fragment_offsets(task.message, 0, st->meta->total_length);
    // Random order, as for answers: two nodes pushing the same message to the
    // same peer start on different fragments, and the NTM drops the overlap.
    for (std::size_t i = fragments.size(); i > 1; --i)
      std::swap(fragments[i - 1],
                fragments[static_cast<std::size_t>(node_.rng.uniform_int(0, static_cast<std::int64_t>(i) - 1))]);
    for (const auto& [offset, length] : fragments) {
      const FragmentKey key{task.message, offset};
      const auto seen = from_.ntm.last_seen(key, now);
      if (config.use_traffic_memory && seen && *seen > task.since) {
        ++node_.stats.pushes_suppressed_ntm;
        continue;
      }
      if (pushes_.queue.size() >= config.max_queued_datagrams) {
        ++node_.stats.queue_drops;
        break;
      }
      pushes_.queue.push_back(QueuedFragment{key, 0, FragmentOrigin::Push, task.since, length});
      ++node_.stats.pushes_queued;
    }
    node_.store->touch(task.message, now);
  }
}

void Replicator::release_pushes(Micros now) {
  const EngineConfig& config = node_.config;
  SendQueues& queues = from_.queues;
  // A small burst: a few fragments may go at once after a quiet spell.
  const double burst = 4.0 * (static_cast<double>(config.payload_size) + static_cast<double>(wire::kDataHeaderEstimate) +
                              static_cast<double>(config.per_datagram_overhead));
  pushes_.tokens = std::min(burst, pushes_.tokens + static_cast<double>(now - pushes_.tokens_at) * push_rate());
  pushes_.tokens_at = now;
  while (!pushes_.queue.empty() && queues.repairs.size() < config.max_queued_datagrams) {
    const QueuedFragment f = pushes_.queue.front();
    if (queues.repair_keys.contains(f.key)) {  // already queued, as an answer to a request
      pushes_.queue.pop_front();
      continue;
    }
    const double cost = push_cost(f);
    if (pushes_.tokens < cost) break;
    pushes_.queue.pop_front();
    pushes_.tokens -= cost;
    queues.repair_keys.insert(f.key);
    queues.repairs.push(node_.tracker.priority_of(f.key.message), f);
  }
}

std::optional<Micros> Replicator::next_deadline() const {
  std::optional<Micros> t = pushes_.summary_due;
  const auto sooner = [&t](Micros at) { t = t ? std::min(*t, at) : at; };
  if (!pushes_.pending.empty()) sooner(pushes_.pending.begin()->first);
  if (!pushes_.queue.empty()) sooner(next_push_time());
  return t;
}

// Bytes a pushed fragment costs against the budget: payload, our header
// (its typical size) and the IP/UDP overhead.
double Replicator::push_cost(const QueuedFragment& f) const {
  return static_cast<double>(f.length) + static_cast<double>(wire::kDataHeaderEstimate) +
         static_cast<double>(node_.config.per_datagram_overhead);
}

// Budget refill in bytes per microsecond.
double Replicator::push_rate() const {
  return from_.controller->budget_fraction() * static_cast<double>(node_.config.link_capacity_bps) / 8.0 /
         static_cast<double>(kSeconds);
}

Micros Replicator::next_push_time() const {
  // With the repair queue full, the pacer's next slot is the next chance.
  if (from_.queues.repairs.size() >= node_.config.max_queued_datagrams) return from_.pacer.next_send_time();
  const double missing = push_cost(pushes_.queue.front()) - pushes_.tokens;
  if (missing <= 0) return pushes_.tokens_at;
  return pushes_.tokens_at + static_cast<Micros>(missing / push_rate()) + 1;
}

}  // namespace dissem::engine
