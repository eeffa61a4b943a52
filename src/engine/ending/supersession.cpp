#include "engine/ending/supersession.h"

#include <algorithm>

namespace dissem::engine {

Supersession::Rules& Supersession::rules_for(const StreamId& stream) {
  auto it = streams_.find(stream);
  if (it != streams_.end()) {
    recency_.splice(recency_.end(), recency_, it->second.recency);
    return it->second;
  }
  if (streams_.size() >= max_streams_ && !recency_.empty()) {
    streams_.erase(recency_.front());
    recency_.pop_front();
  }
  recency_.push_back(stream);
  Rules& r = streams_[stream];
  r.recency = std::prev(recency_.end());
  return r;
}

bool Supersession::learn(const MessageMeta& meta) {
  if (!meta.supersedes_any()) return false;
  const StreamId stream = stream_of(meta.id);
  Rules& r = rules_for(stream);
  bool learnt = false;
  for (std::size_t i = 0; i + 1 < meta.supersedes.size(); i += 2) {
    const std::uint64_t begin = meta.supersedes[i];
    const std::uint64_t end = std::min(meta.supersedes[i + 1], meta.id.seq);
    if (begin < end) learnt |= r.numbers.add(begin, end) > 0;
  }
  // Bounded: the oldest numbers go first (they matter least).
  while (r.numbers.ranges().size() > kMaxRanges) r.numbers.drop_first();
  if (meta.replace && !meta.tag.empty()) {
    auto t = r.tags.find(meta.tag);
    if (t != r.tags.end()) {
      if (t->second < meta.id.seq) {
        t->second = meta.id.seq;
        learnt = true;
      }
    } else if (r.tags.size() < kMaxTags) {
      r.tags.emplace(meta.tag, meta.id.seq);
      learnt = true;
    } else {
      ++refused_;
    }
  }
  return learnt;
}

bool Supersession::ended(const StreamId& stream, std::uint64_t seq) const {
  auto it = streams_.find(stream);
  return it != streams_.end() && it->second.numbers.contains(seq);
}

bool Supersession::ended(const MessageMeta& meta) const {
  auto it = streams_.find(stream_of(meta.id));
  if (it == streams_.end()) return false;
  if (it->second.numbers.contains(meta.id.seq)) return true;
  auto t = it->second.tags.find(meta.tag);
  return t != it->second.tags.end() && t->second > meta.id.seq;
}

void OwnTags::note(const std::string& group, std::uint64_t seq, const std::string& tag) {
  auto& recent = recent_[group];
  recent.emplace_back(seq, tag);
  if (recent.size() > kRemembered) recent.pop_front();
}

std::vector<std::uint64_t> OwnTags::with_tag(const std::string& group, const std::string& tag,
                                             std::size_t max_ranges) const {
  std::vector<std::uint64_t> out;
  auto it = recent_.find(group);
  if (it == recent_.end()) return out;
  // Newest first, so that the limit keeps the most recent ranges.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (auto r = it->second.rbegin(); r != it->second.rend(); ++r) {
    if (r->second != tag) continue;
    if (!ranges.empty() && ranges.back().first == r->first + 1) {
      ranges.back().first = r->first;
    } else {
      if (ranges.size() == max_ranges) break;
      ranges.emplace_back(r->first, r->first + 1);
    }
  }
  for (auto r = ranges.rbegin(); r != ranges.rend(); ++r) {
    out.push_back(r->first);
    out.push_back(r->second);
  }
  return out;
}

}  // namespace dissem::engine
