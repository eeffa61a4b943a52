// Replication (anti-entropy): building and answering summaries, and pushing
// what a peer lacks. The controller decides when to summarise and what to
// push; this file turns its decisions into traffic that obeys the same rules
// as repairs: pushes wait a random delay, pass through a byte budget (the
// controller's share of the link), then the repair queue (pacer, priority
// split), and are dropped if the NTM saw them on the air since the summary.
#include <algorithm>
#include <map>
#include <set>

#include "engine/node_impl.h"
#include "wire/control_entry_sizes.h"

namespace dissem::engine {
namespace {

// Bytes a pushed fragment costs against the budget: payload, our header
// (its typical size) and the IP/UDP overhead.
double push_cost(const NodeImpl& n, const QueuedFragment& f) {
  return static_cast<double>(f.length) + static_cast<double>(wire::kDataHeaderEstimate) +
         static_cast<double>(n.config.per_datagram_overhead);
}

// Budget refill in bytes per microsecond.
double push_rate(const NodeImpl& n) {
  return n.replication->budget_fraction() * static_cast<double>(n.config.link_capacity_bps) / 8.0 /
         static_cast<double>(kSeconds);
}

// Our complete, unexpired messages by stream, as sequence-number ranges.
std::map<StreamId, SeqRanges> holdings(const NodeImpl& n, const std::set<std::string>& groups, Micros now) {
  std::map<StreamId, SeqRanges> held;
  n.tracker.for_each_complete([&](const MessageMeta& m) {
    if (groups.contains(m.id.group) && !m.expired_at(now)) held[stream_of(m.id)].add(m.id.seq, m.id.seq + 1);
  });
  return held;
}

}  // namespace

void NodeImpl::send_summary(Micros now) {
  wire::Summary s;
  s.set_node(config.node_id);
  s.set_reply(pushes.summary_reply);
  pushes.summary_due.reset();
  pushes.summary_reply = false;

  // One datagram: wants first (without them nothing is pushed to us), then
  // as many streams as fit; the rest are marked unknown, not empty.
  wire::FrameBudget budget(config.payload_size, wire::summary_header_size());
  std::set<std::string> wanted;
  for (const auto& g : wanted_groups()) {
    if (!budget.take(wire::summary_want_size(g))) break;
    s.add_wants(g);
    wanted.insert(g);
  }
  for (const auto& [stream, ranges] : holdings(*this, wanted, now)) {
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
  enqueue_control(wire::encode(s), TrafficKind::Summary);
  ++stats.summaries_sent;
  replication->on_summary_sent(now);
}

void NodeImpl::on_summary(const wire::Summary& s, Micros now) {
  if (!replication->active()) return;
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

  // Push candidates: our complete messages in the groups it wants, in id
  // order (the tracker's own order is a hash table's).
  const std::set<std::string> wants(peer.wants.begin(), peer.wants.end());
  std::vector<controllers::HeldMessage> held;
  tracker.for_each_complete([&](const MessageMeta& m) {
    if (wants.contains(m.id.group) && !m.expired_at(now)) held.push_back({m.id, m.total_length, m.priority});
  });
  std::sort(held.begin(), held.end(), [](const auto& a, const auto& b) { return a.id < b.id; });

  const auto response = replication->on_summary(peer, held, view, now, rng);
  if (response.reply_delay) schedule_summary(now + std::max<Micros>(*response.reply_delay, 0), true);
  if (!response.pushes.empty()) {
    // One random delay for the batch keeps the controller's order.
    const Micros due = now + rng.uniform_int(0, timing.serve_delay_max);
    const Micros since = now - timing.in_flight_slack;
    for (const auto& id : response.pushes) pushes.pending.emplace(due, PushTask{id, since});
  }

  // Pull: what the peer holds in groups we want exists, so we fetch what we
  // lack like any gap. When the peer pushes to us (this is its answer to our
  // summary, or we answer it now), requests wait until its first pushes
  // could have arrived, then fill their losses; a request for a fragment
  // still in the peer's push queue turns it into a repair, never a second copy.
  if (replication->learn_from_summaries()) {
    Micros not_before = now;
    if (peer.reply || response.reply_delay)
      not_before += response.reply_delay.value_or(0) + timing.serve_delay_max + timing.rtt;
    tracker.hold_new_requests_until(not_before);
    for (const auto& h : peer.streams) {
      if (h.stream.publisher == config.node_id || !wants_group(h.stream.group)) continue;
      if (h.held.empty()) continue;
      // First the newest, as a beacon would tell it: a stream new to us gets
      // the baseline its subscription's history asks for, not the oldest
      // message this peer happens to hold.
      learn_stream(h.stream, h.held.back().end - 1, 0, true, now);
      std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
      for (const auto& r : h.held) ranges.emplace_back(r.begin, r.end);
      tracker.learn_available(h.stream, ranges, now, not_before);
    }
  }
}

void NodeImpl::start_due_pushes(Micros now) {
  while (!pushes.pending.empty() && pushes.pending.begin()->first <= now) {
    const PushTask task = pushes.pending.begin()->second;
    pushes.pending.erase(pushes.pending.begin());
    const MessageState* st = tracker.find(task.message);
    if (st == nullptr || !st->complete || !st->meta || st->meta->expired_at(now)) continue;
    auto fragments = store->fragment_offsets(task.message, 0, st->meta->total_length);
    // Random order, as for answers: two nodes pushing the same message to the
    // same peer start on different fragments, and the NTM drops the overlap.
    for (std::size_t i = fragments.size(); i > 1; --i)
      std::swap(fragments[i - 1],
                fragments[static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(i) - 1))]);
    for (const auto& [offset, length] : fragments) {
      const FragmentKey key{task.message, offset};
      const auto seen = ntm.last_seen(key, now);
      if (config.use_traffic_memory && seen && *seen > task.since) {
        ++stats.pushes_suppressed_ntm;
        continue;
      }
      if (pushes.queue.size() >= config.max_queued_datagrams) {
        ++stats.queue_drops;
        break;
      }
      pushes.queue.push_back(QueuedFragment{key, 0, FragmentOrigin::Push, task.since, length});
      ++stats.pushes_queued;
    }
    store->touch(task.message, now);
  }
}

void NodeImpl::release_pushes(Micros now) {
  // A small burst: a few fragments may go at once after a quiet spell.
  const double burst = 4.0 * (static_cast<double>(config.payload_size) + static_cast<double>(wire::kDataHeaderEstimate) +
                              static_cast<double>(config.per_datagram_overhead));
  pushes.tokens = std::min(burst, pushes.tokens + static_cast<double>(now - pushes.tokens_at) * push_rate(*this));
  pushes.tokens_at = now;
  while (!pushes.queue.empty() && queues.repairs.size() < config.max_queued_datagrams) {
    const QueuedFragment f = pushes.queue.front();
    if (queues.repair_keys.contains(f.key)) {  // already queued, as an answer to a request
      pushes.queue.pop_front();
      continue;
    }
    const double cost = push_cost(*this, f);
    if (pushes.tokens < cost) break;
    pushes.queue.pop_front();
    pushes.tokens -= cost;
    queues.repair_keys.insert(f.key);
    queues.repairs.push(priority_of(f.key.message), f);
  }
}

Micros NodeImpl::next_push_time() const {
  // With the repair queue full, the pacer's next slot is the next chance.
  if (queues.repairs.size() >= config.max_queued_datagrams) return pacer.next_send_time();
  const double missing = push_cost(*this, pushes.queue.front()) - pushes.tokens;
  if (missing <= 0) return pushes.tokens_at;
  return pushes.tokens_at + static_cast<Micros>(missing / push_rate(*this)) + 1;
}

}  // namespace dissem::engine
