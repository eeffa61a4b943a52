// Deterministic message contents: byte j of message i is a function of (i, j)
// only, so a receiver can check every byte without a copy of the original,
// and a program that sends a message in pieces (dissem-pgm) can make or check
// any piece on its own.
#pragma once

#include <cstdint>
#include <span>

namespace dissem::baseline {

// Writes bytes [offset, offset + out.size()) of message `index`.
void fill_payload(std::uint32_t index, std::uint64_t offset, std::span<char> out);
inline void fill_payload(std::uint32_t index, std::span<char> out) { fill_payload(index, 0, out); }

// True when `data` is exactly bytes [offset, offset + data.size()) of message `index`.
bool payload_matches(std::uint32_t index, std::uint64_t offset, std::span<const char> data);
inline bool payload_matches(std::uint32_t index, std::span<const char> data) {
  return payload_matches(index, 0, data);
}

}  // namespace dissem::baseline
