// A set of half-open integer ranges [begin, end), kept merged and sorted.
// Used for the bytes of a message held so far and for the sequence numbers of
// a stream that are settled. Fragments mostly arrive in order, so appending at
// the end is the fast path.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace dissem::engine {

template <typename T>
class RangeSet {
 public:
  using Range = std::pair<T, T>;

  // Adds [begin, end); returns how many values were not already present.
  T add(T begin, T end);
  // Removes one value (splitting its range); false if it was not held.
  bool remove(T value);
  // Removes the lowest range (requires !empty()).
  void drop_first() {
    covered_ -= ranges_.front().second - ranges_.front().first;
    ranges_.erase(ranges_.begin());
  }
  bool contains(T value) const;
  bool contains(T begin, T end) const;  // the whole range
  // The smallest value at or above `value` that is not in the set: the end
  // of the range holding `value`, or `value` itself. Lets a walk over a
  // stretch skip what the set holds in one step.
  T next_absent(T value) const;
  // Values of [begin, end) not in the set, as ranges, ascending.
  std::vector<Range> gaps(T begin, T end) const;
  T covered() const { return covered_; }
  bool empty() const { return ranges_.empty(); }
  const std::vector<Range>& ranges() const { return ranges_; }
  T min() const { return ranges_.front().first; }  // requires !empty()
  T max_end() const { return ranges_.back().second; }
  void clear() {
    ranges_.clear();
    covered_ = 0;
  }

 private:
  std::vector<Range> ranges_;
  T covered_ = 0;
};

extern template class RangeSet<std::uint32_t>;
extern template class RangeSet<std::uint64_t>;

using ByteRanges = RangeSet<std::uint32_t>;
using SeqRanges = RangeSet<std::uint64_t>;

}  // namespace dissem::engine
