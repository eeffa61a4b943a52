#include "wire/group_refs.h"

#include <cstdint>

namespace dissem::wire {
namespace {

// Heterogeneous lookup of (publisher, name) without building a std::string.
struct NameView {
  std::uint32_t publisher;
  std::string_view name;
};
bool operator<(const std::pair<std::uint32_t, std::string>& a, const NameView& b) {
  return a.first != b.publisher ? a.first < b.publisher : std::string_view(a.second) < b.name;
}
bool operator<(const NameView& a, const std::pair<std::uint32_t, std::string>& b) {
  return a.publisher != b.first ? a.publisher < b.first : a.name < std::string_view(b.second);
}

}  // namespace

const std::string* GroupRefs::name_of(std::uint32_t publisher, std::uint32_t ref) const {
  const auto it = by_ref_.find({publisher, ref});
  return it == by_ref_.end() ? nullptr : &it->second.name;
}

std::uint32_t GroupRefs::ref_of(std::uint32_t publisher, std::string_view group) const {
  const auto it = by_name_.find(NameView{publisher, group});
  return it == by_name_.end() ? 0 : it->second;
}

GroupRefs::Learnt GroupRefs::learn(std::uint32_t publisher, std::uint32_t ref, const std::string& group,
                                   std::optional<std::pair<std::uint32_t, std::uint32_t>>* forgotten) {
  if (ref == 0 || group.empty()) return Learnt::Known;
  const RefKey key{publisher, ref};
  auto it = by_ref_.find(key);
  if (it != by_ref_.end() && it->second.name == group) return Learnt::Known;
  if (it != by_ref_.end() && it->second.pinned) return Learnt::Known;  // ours: never rewritten from the air
  const bool changed = it != by_ref_.end() || ref_of(publisher, group) != 0;
  // A claim that contradicts what is known takes effect once heard
  // kConfirmations times: a publisher that lost its state repeats its new
  // mapping in every announcement, while a corrupted or spoofed copy of one
  // seldom says the same thing twice.
  if (changed) {
    if (pending_.size() >= kMaxPending) pending_.clear();
    auto& heard = pending_[{key, group}];
    if (++heard < kConfirmations) return Learnt::Known;
    pending_.erase({key, group});
  }
  if (it != by_ref_.end()) erase(key);
  // The name under another ref of the same publisher: that ref is stale.
  if (const std::uint32_t old = ref_of(publisher, group); old != 0) {
    if (by_ref_.at({publisher, old}).pinned) return Learnt::Known;
    erase({publisher, old});
  }
  if (age_.size() >= capacity_ && !age_.empty()) {
    if (forgotten != nullptr) *forgotten = age_.front();
    erase(age_.front());
    ++forgotten_;
  }
  insert(key, group, false);
  return changed ? Learnt::Changed : Learnt::New;
}

void GroupRefs::pin(std::uint32_t publisher, std::uint32_t ref, const std::string& group) {
  const RefKey key{publisher, ref};
  if (by_ref_.contains(key)) erase(key);
  if (const std::uint32_t old = ref_of(publisher, group); old != 0) erase({publisher, old});
  insert(key, group, true);
}

std::uint32_t GroupRefs::next_free(std::uint32_t publisher) const {
  auto it = by_ref_.upper_bound({publisher, UINT32_MAX});
  if (it == by_ref_.begin()) return 1;
  --it;
  return it->first.first == publisher ? it->first.second + 1 : 1;
}

void GroupRefs::erase(const RefKey& key) {
  const auto it = by_ref_.find(key);
  if (it == by_ref_.end()) return;
  by_name_.erase(NameKey{key.first, it->second.name});
  if (!it->second.pinned) age_.erase(it->second.age);
  by_ref_.erase(it);
}

void GroupRefs::insert(const RefKey& key, const std::string& group, bool pinned) {
  Entry e{group, pinned, {}};
  if (!pinned) e.age = age_.insert(age_.end(), key);
  by_ref_.emplace(key, std::move(e));
  by_name_[NameKey{key.first, group}] = key.second;
}

}  // namespace dissem::wire
