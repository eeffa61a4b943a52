// A send queue ordered by message priority: strict between levels (the
// highest level with entries is served first), first come first served
// within a level. Levels are kept only while they hold entries.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>

namespace dissem::engine {

template <class T>
class LeveledQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push(std::uint32_t level, T item) {
    levels_[level].push_back(std::move(item));
    ++size_;
  }
  // Puts `item` at position `index` of `level` (at its end if shorter).
  void insert(std::uint32_t level, std::size_t index, T item) {
    auto& entries = levels_[level];
    entries.insert(entries.begin() + static_cast<std::ptrdiff_t>(std::min(index, entries.size())), std::move(item));
    ++size_;
  }
  // The position within `level` of its first entry `pred` is true for.
  template <class P>
  std::optional<std::size_t> find(std::uint32_t level, P&& pred) const {
    auto it = levels_.find(level);
    if (it == levels_.end()) return std::nullopt;
    for (std::size_t i = 0; i < it->second.size(); ++i)
      if (pred(it->second[i])) return i;
    return std::nullopt;
  }
  // The highest level with entries (requires !empty()).
  std::uint32_t top() const { return levels_.begin()->first; }
  bool has(std::uint32_t level) const { return levels_.contains(level); }
  // The oldest entry of `level` (requires has(level)).
  T& front(std::uint32_t level) { return levels_.find(level)->second.front(); }
  void pop_front(std::uint32_t level) {
    auto it = levels_.find(level);
    it->second.pop_front();
    --size_;
    if (it->second.empty()) levels_.erase(it);
  }
  // The highest level with entries strictly below `level`, if any.
  std::optional<std::uint32_t> highest_below(std::uint32_t level) const {
    auto it = levels_.upper_bound(level);  // descending order: the first key < level
    if (it == levels_.end()) return std::nullopt;
    return it->first;
  }
  // Every entry, highest level first, in queue order within a level.
  template <class F>
  void for_each(F&& f) const {
    for (const auto& [level, entries] : levels_)
      for (const T& e : entries) f(e);
  }
  template <class F>
  void for_each(F&& f) {
    for (auto& [level, entries] : levels_)
      for (T& e : entries) f(e);
  }
  // Removes the entries `pred` is true for; calls `gone` on each first.
  template <class P, class G>
  void erase_if(P&& pred, G&& gone) {
    for (auto it = levels_.begin(); it != levels_.end();) {
      auto& entries = it->second;
      for (auto e = entries.begin(); e != entries.end();) {
        if (pred(*e)) {
          gone(*e);
          e = entries.erase(e);
          --size_;
        } else {
          ++e;
        }
      }
      it = entries.empty() ? levels_.erase(it) : std::next(it);
    }
  }

 private:
  std::map<std::uint32_t, std::deque<T>, std::greater<>> levels_;
  std::size_t size_ = 0;
};

}  // namespace dissem::engine
