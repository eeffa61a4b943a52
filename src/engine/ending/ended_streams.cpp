#include "engine/ending/ended_streams.h"

#include "engine/state_number.h"

#include <algorithm>

namespace dissem::engine {
namespace {

const std::string kEndedPrefix = "ended/";

}  // namespace

void EndedStreams::restore(cache::Store& store) {
  for (const auto& [key, value] : store.states_with_prefix(kEndedPrefix)) {
    const auto w = parse_state_number<std::uint64_t>(value);
    if (!w || *w <= 1) continue;
    const std::string group = key.substr(kEndedPrefix.size());
    own_[group].add(1, *w);
    saved_[group] = *w;
  }
}

std::uint64_t EndedStreams::own_watermark(const std::string& group, cache::Store& store) {
  const auto it = own_.find(group);
  if (it == own_.end() || it->second.empty() || it->second.ranges().front().first != 1) return 0;
  const std::uint64_t w = it->second.ranges().front().second;
  if (auto& saved = saved_[group]; saved != w) {
    store.set_state(kEndedPrefix + group, std::to_string(w));
    saved = w;
  }
  return w;
}

EndedStreams::Learnt* EndedStreams::entry(const StreamId& stream) {
  auto it = learnt_.find(stream);
  if (it != learnt_.end()) return &it->second;
  if (learnt_.size() >= max_streams_) return nullptr;  // bounded: hostile beacons cannot grow it
  return &learnt_[stream];
}

EndedStreams::Claim EndedStreams::learn(const StreamId& stream, std::uint64_t ended_below, NodeId claimer,
                                        Micros now, Micros trust) {
  if (ended_below <= 1) return Claim::Ignored;
  const auto it = learnt_.find(stream);
  if (it != learnt_.end() && ended_below <= it->second.below) return Claim::Ignored;
  if (it != learnt_.end() && claimer != stream.publisher && it->second.publisher_heard &&
      now - it->second.publisher_at <= trust && ended_below > it->second.publisher_says)
    return Claim::Refused;
  Learnt* e = it != learnt_.end() ? &it->second : entry(stream);
  if (e == nullptr) return Claim::Ignored;
  e->below = ended_below;
  if (claimer != stream.publisher) {
    e->hearsay_by = claimer;
  } else {
    e->publisher_says = ended_below;
    e->publisher_at = now;
    e->publisher_heard = true;
  }
  return Claim::Moved;
}

void EndedStreams::note_hearsay(const StreamId& stream,
                                const std::vector<std::pair<std::uint64_t, std::uint64_t>>& settled) {
  const auto it = learnt_.find(stream);
  if (it == learnt_.end()) return;
  for (const auto& [b, e] : settled) it->second.hearsay.add(b, e);
}

std::optional<NodeId> EndedStreams::hearsay_claimer(const MessageId& id) const {
  const auto it = learnt_.find(StreamId{id.group, id.publisher});
  if (it == learnt_.end() || !it->second.hearsay.contains(id.seq)) return std::nullopt;
  return it->second.hearsay_by;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> EndedStreams::publisher_word(const StreamId& stream,
                                                                                  std::uint64_t below, Micros now) {
  Learnt* e = entry(stream);
  if (e == nullptr) return {};
  below = std::max<std::uint64_t>(below, 1);
  e->publisher_says = below;
  e->publisher_at = now;
  e->publisher_heard = true;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> reopened;
  if (e->below <= below) return reopened;
  e->below = below;
  if (e->hearsay.empty() || e->hearsay.max_end() <= below) return reopened;
  for (const auto& [b, end] : e->hearsay.ranges())
    if (end > below) reopened.emplace_back(std::max(b, below), end);
  SeqRanges kept;
  for (const auto& [b, end] : e->hearsay.ranges())
    if (b < below) kept.add(b, std::min(end, below));
  e->hearsay = std::move(kept);
  return reopened;
}

}  // namespace dissem::engine
