#include "engine/subscribers/subscriptions.h"

#include <algorithm>
#include <limits>

namespace dissem::engine {

SubscriptionId Subscriptions::add(Subscription s) {
  const SubscriptionId id = next_id_++;
  subs_.emplace(id, std::move(s));
  return id;
}

bool Subscriptions::remove(SubscriptionId id) { return subs_.erase(id) > 0; }

Subscription* Subscriptions::find(SubscriptionId id) {
  auto it = subs_.find(id);
  return it == subs_.end() ? nullptr : &it->second;
}

bool Subscriptions::any(const std::string& group) const {
  return std::any_of(subs_.begin(), subs_.end(), [&](const auto& kv) { return kv.second.group == group; });
}

std::set<std::string> Subscriptions::groups() const {
  std::set<std::string> out;
  for (const auto& [id, s] : subs_) out.insert(s.group);
  return out;
}

bool Subscriptions::reliable(const std::string& group) const {
  return std::any_of(subs_.begin(), subs_.end(),
                     [&](const auto& kv) { return kv.second.group == group && kv.second.reliable; });
}

bool Subscriptions::reliable_aloud(const std::string& group) const {
  return std::any_of(subs_.begin(), subs_.end(), [&](const auto& kv) {
    return kv.second.group == group && kv.second.reliable && !kv.second.silent;
  });
}

std::set<std::string> Subscriptions::groups_aloud() const {
  std::set<std::string> out;
  for (const auto& [id, s] : subs_)
    if (!s.silent) out.insert(s.group);
  return out;
}

std::uint32_t Subscriptions::history(const std::string& group, std::uint32_t publisher_hint) const {
  std::uint32_t h = 0;
  for (const auto& [id, s] : subs_) {
    if (s.group != group) continue;
    h = std::max(h, s.use_publisher_history ? std::max(s.history, publisher_hint) : s.history);
  }
  return h;
}

void Subscriptions::on_settled(const MessageId& id, bool complete, const MessageTracker& tracker, Micros now,
                               std::vector<DeliveryOrder>& out) {
  const StreamId stream = stream_of(id);
  for (auto& [sid, sub] : subs_) {
    if (sub.group != id.group) continue;
    if (!sub.ordered) {
      if (complete) out.push_back({sid, id, false});
      continue;
    }
    auto [it, inserted] = sub.order.try_emplace(stream);
    OrderState& st = it->second;
    if (inserted) {
      // First message of this publisher for this subscription: start at the
      // stream's baseline (which includes any history asked for).
      const StreamState* s = tracker.stream(stream);
      st.next = (s != nullptr && s->baseline != 0) ? std::min(s->baseline, id.seq) : id.seq;
    }
    if (complete && id.seq >= st.next) st.ready.insert(id.seq);
    drain(sid, sub, stream, st, tracker, now, out);
  }
}

void Subscriptions::drain(SubscriptionId id, Subscription& sub, const StreamId& stream, OrderState& st,
                          const MessageTracker& tracker, Micros now, std::vector<DeliveryOrder>& out) {
  const StreamState* s = tracker.stream(stream);
  // Nothing below the baseline will ever be fetched: do not wait for it.
  if (s != nullptr && s->baseline > st.next) {
    while (!st.ready.empty() && *st.ready.begin() < s->baseline) st.ready.erase(st.ready.begin());
    st.next = s->baseline;
  }
  while (!st.ready.empty()) {
    const MessageId next_id{stream.group, stream.publisher, st.next};
    if (*st.ready.begin() == st.next) {
      out.push_back({id, next_id, false});
      st.ready.erase(st.ready.begin());
      ++st.next;
      st.waiting_since = 0;
      continue;
    }
    // A gap at `next` with later messages ready.
    const bool given_up = tracker.settled(next_id) && tracker.find(next_id) == nullptr;
    if (!given_up && sub.reliable) break;
    if (!given_up) {
      if (st.waiting_since == 0) st.waiting_since = now;
      if (now - st.waiting_since < reorder_time_) break;
    }
    out.push_back({id, next_id, true});
    ++st.next;
    st.waiting_since = 0;
  }
  if (st.ready.empty()) st.waiting_since = 0;
}

void Subscriptions::on_timer(const MessageTracker& tracker, Micros now, std::vector<DeliveryOrder>& out) {
  for (auto& [sid, sub] : subs_) {
    if (!sub.ordered) continue;
    for (auto& [stream, st] : sub.order) {
      if (!st.ready.empty()) drain(sid, sub, stream, st, tracker, now, out);
    }
  }
}

Micros Subscriptions::next_deadline(Micros reorder_time) const {
  Micros t = std::numeric_limits<Micros>::max();
  for (const auto& [sid, sub] : subs_) {
    if (!sub.ordered || sub.reliable) continue;
    for (const auto& [stream, st] : sub.order)
      if (st.waiting_since != 0) t = std::min(t, st.waiting_since + reorder_time);
  }
  return t;
}

}  // namespace dissem::engine
