// A byte budget for building a frame entry by entry, and the encoded sizes
// of protobuf fields that the entries' sizes are made of. The engine asks
// for an entry's size (wire/control_entry_sizes.h) and takes it from the
// budget only if it fits, so no frame it builds exceeds its limit and no
// byte counting is done outside wire/.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wire/varint.h"

namespace dissem::wire {

class FrameBudget {
 public:
  explicit FrameBudget(std::size_t limit, std::size_t used = 0) : limit_(limit), used_(used) {}
  bool fits(std::size_t bytes) const { return used_ + bytes <= limit_; }
  // Counts `bytes` if they fit; false (nothing counted) otherwise.
  bool take(std::size_t bytes) {
    if (!fits(bytes)) return false;
    used_ += bytes;
    return true;
  }
  std::size_t used() const { return used_; }
  std::size_t limit() const { return limit_; }

 private:
  std::size_t limit_;
  std::size_t used_;
};

// Field sizes for field numbers below 16 (a one-byte tag), as protobuf
// encodes them. A field left at its default (0, empty) takes no bytes.
constexpr std::size_t varint_field(std::uint64_t v) { return 1 + varint_size(v); }
constexpr std::size_t fixed32_field() { return 5; }
constexpr std::size_t bytes_field(std::size_t length) { return 1 + varint_size(length) + length; }
// Two numbers in a packed repeated field (a range [begin, end)).
constexpr std::size_t packed_pair(std::uint64_t first, std::uint64_t second) {
  return varint_size(first) + varint_size(second);
}
// The tag and length prefix of an embedded message, or of a packed repeated
// field, that may be as long as `max_length`.
constexpr std::size_t nested_header(std::size_t max_length) { return 1 + varint_size(max_length); }

}  // namespace dissem::wire
