#include "engine/group_naming.h"

#include <optional>
#include <string_view>

#include "engine/state_number.h"

namespace dissem::engine {
namespace {

const std::string kGroupRefPrefix = "gref/";         // ours: group -> ref
const std::string kHeardPrefix = "gref-heard/";  // learnt: publisher/ref -> group

std::string heard_key(std::uint32_t publisher, std::uint32_t ref) {
  return kHeardPrefix + std::to_string(publisher) + "/" + std::to_string(ref);
}

}  // namespace

void GroupNaming::restore(cache::Store& store) {
  for (const auto& [key, value] : store.states_with_prefix(kGroupRefPrefix)) {
    const auto ref = parse_state_number<std::uint32_t>(value);
    if (!ref || *ref == 0) continue;  // not ours to repair
    refs_.pin(self_, *ref, key.substr(kGroupRefPrefix.size()));
  }
  for (const auto& [key, group] : store.states_with_prefix(kHeardPrefix)) {
    const std::string_view rest = std::string_view(key).substr(kHeardPrefix.size());
    const auto slash = rest.find('/');
    const auto publisher =
        slash == std::string_view::npos ? std::nullopt : parse_state_number<std::uint32_t>(rest.substr(0, slash));
    const auto ref =
        slash == std::string_view::npos ? std::nullopt : parse_state_number<std::uint32_t>(rest.substr(slash + 1));
    if (!publisher || !ref || *publisher == self_ || group.empty()) {
      store.erase_state(key);
      continue;
    }
    std::optional<std::pair<std::uint32_t, std::uint32_t>> forgotten;
    refs_.learn(*publisher, *ref, group, &forgotten);
    if (forgotten) store.erase_state(heard_key(forgotten->first, forgotten->second));
  }
}

std::uint32_t GroupNaming::own_ref(const std::string& group, cache::Store& store) {
  if (const std::uint32_t ref = refs_.ref_of(self_, group); ref != 0) return ref;
  const std::uint32_t ref = refs_.next_free(self_);
  store.set_state(kGroupRefPrefix + group, std::to_string(ref));
  refs_.pin(self_, ref, group);
  return ref;
}

wire::DataEncoding GroupNaming::encoding(NodeId publisher, const std::string& group, Micros now, Micros interval,
                                         cache::Store& store) {
  wire::DataEncoding e;
  e.group_ref = publisher == self_ ? own_ref(group, store) : refs_.ref_of(publisher, group);
  if (e.group_ref == 0) return e;  // named, without a reference
  // Our own announcements only: a frame heard from a neighbour reached its
  // neighbours, not necessarily ours (a relay's are a hop further on).
  auto [it, fresh] = announced_.try_emplace({publisher, e.group_ref}, Announcement{now, 0});
  Announcement& a = it->second;
  // Repeated a few times whenever it is due, so that one lost frame does
  // not leave a receiver unable to read the stream for a whole interval.
  if (!fresh && now - a.at >= interval) a = Announcement{now, 0};
  e.with_name = a.repeats < kRepeats;
  if (e.with_name) ++a.repeats;
  return e;
}

bool GroupNaming::on_frame(const wire::DataFragment& d, const wire::DataFrameInfo& info, cache::Store& store) {
  if (!info.named || info.group_ref == 0) return false;
  return on_mapping(d.publisher(), info.group_ref, d.group(), store);
}

bool GroupNaming::on_mapping(NodeId publisher, std::uint32_t ref, const std::string& group, cache::Store& store) {
  if (ref == 0 || publisher == self_) return false;  // ours are assigned here, never learnt
  std::optional<std::pair<std::uint32_t, std::uint32_t>> forgotten;
  const auto learnt = refs_.learn(publisher, ref, group, &forgotten);
  if (learnt == wire::GroupRefs::Learnt::Known) return false;
  // Kept across restarts, as many as the table holds: a restarted node reads
  // the frames of streams it knew at once, not after their next announcement.
  store.set_state(heard_key(publisher, ref), group);
  if (forgotten) {
    store.erase_state(heard_key(forgotten->first, forgotten->second));
    announced_.erase(*forgotten);
  }
  return learnt == wire::GroupRefs::Learnt::Changed;
}

}  // namespace dissem::engine
