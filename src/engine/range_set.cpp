#include "engine/range_set.h"

#include <algorithm>

namespace dissem::engine {

template <typename T>
T RangeSet<T>::add(T begin, T end) {
  if (begin >= end) return 0;
  // Fast path: strictly after everything held, or touching the last range.
  if (ranges_.empty() || begin > ranges_.back().second) {
    ranges_.emplace_back(begin, end);
    covered_ += end - begin;
    return end - begin;
  }
  if (begin >= ranges_.back().first) {
    auto& last = ranges_.back();
    if (end <= last.second) return 0;
    const T start = std::max(begin, last.second);
    const T added = end - start;
    last.second = end;
    covered_ += added;
    return added;
  }
  // General case: merge every range that overlaps or touches [begin, end).
  auto first = std::lower_bound(ranges_.begin(), ranges_.end(), begin,
                                [](const Range& r, T v) { return r.second < v; });
  auto last = first;
  T merged_begin = begin;
  T merged_end = end;
  T overlapped = 0;
  while (last != ranges_.end() && last->first <= end) {
    merged_begin = std::min(merged_begin, last->first);
    merged_end = std::max(merged_end, last->second);
    overlapped += last->second - last->first;
    ++last;
  }
  const T new_covered = merged_end - merged_begin;
  const T added = new_covered - overlapped;
  if (first == last) {
    ranges_.insert(first, Range{merged_begin, merged_end});
  } else {
    *first = Range{merged_begin, merged_end};
    ranges_.erase(first + 1, last);
  }
  covered_ += added;
  return added;
}

template <typename T>
bool RangeSet<T>::remove(T value) {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), value,
                             [](T v, const Range& r) { return v < r.first; });
  if (it == ranges_.begin()) return false;
  --it;
  if (value >= it->second) return false;
  --covered_;
  if (it->first == value && it->second == value + 1) {
    ranges_.erase(it);
  } else if (it->first == value) {
    it->first = value + 1;
  } else if (it->second == value + 1) {
    it->second = value;
  } else {
    const T end = it->second;
    it->second = value;
    ranges_.insert(it + 1, Range{value + 1, end});
  }
  return true;
}

template <typename T>
bool RangeSet<T>::contains(T value) const {
  return contains(value, value + 1);
}

template <typename T>
T RangeSet<T>::next_absent(T value) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), value, [](T v, const Range& r) { return v < r.first; });
  if (it == ranges_.begin()) return value;
  --it;
  return it->first <= value && value < it->second ? it->second : value;
}

template <typename T>
bool RangeSet<T>::contains(T begin, T end) const {
  if (begin >= end) return true;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), begin,
                             [](T v, const Range& r) { return v < r.first; });
  if (it == ranges_.begin()) return false;
  --it;
  return it->first <= begin && end <= it->second;
}

template <typename T>
std::vector<typename RangeSet<T>::Range> RangeSet<T>::gaps(T begin, T end) const {
  std::vector<Range> out;
  T cursor = begin;
  auto it = std::lower_bound(ranges_.begin(), ranges_.end(), begin,
                             [](const Range& r, T v) { return r.second <= v; });
  for (; it != ranges_.end() && cursor < end; ++it) {
    if (it->first >= end) break;
    if (it->first > cursor) out.emplace_back(cursor, it->first);
    cursor = std::max(cursor, it->second);
  }
  if (cursor < end) out.emplace_back(cursor, end);
  return out;
}

template class RangeSet<std::uint32_t>;
template class RangeSet<std::uint64_t>;

}  // namespace dissem::engine
