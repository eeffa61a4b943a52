#include "engine/ended_streams.h"

#include "engine/state_number.h"

namespace dissem::engine {
namespace {

const std::string kPrefix = "ended/";

}  // namespace

void EndedStreams::restore(cache::Store& store) {
  for (const auto& [key, value] : store.states_with_prefix(kPrefix)) {
    const auto w = parse_state_number<std::uint64_t>(value);
    if (!w || *w <= 1) continue;
    const std::string group = key.substr(kPrefix.size());
    own_[group].add(1, *w);
    saved_[group] = *w;
  }
}

std::uint64_t EndedStreams::own_watermark(const std::string& group, cache::Store& store) {
  const auto it = own_.find(group);
  if (it == own_.end() || it->second.empty() || it->second.ranges().front().first != 1) return 0;
  const std::uint64_t w = it->second.ranges().front().second;
  if (auto& saved = saved_[group]; saved != w) {
    store.set_state(kPrefix + group, std::to_string(w));
    saved = w;
  }
  return w;
}

bool EndedStreams::learn(const StreamId& stream, std::uint64_t ended_below) {
  if (ended_below <= 1) return false;
  auto it = learnt_.find(stream);
  if (it == learnt_.end()) {
    if (learnt_.size() >= max_streams_) return false;  // bounded: hostile beacons cannot grow it
    learnt_.emplace(stream, ended_below);
    return true;
  }
  if (ended_below <= it->second) return false;
  it->second = ended_below;
  return true;
}

}  // namespace dissem::engine
