// Deterministic message contents: byte j of message i is a function of (i, j)
// only, so a receiver can check every byte without a copy of the original.
#pragma once

#include <cstdint>
#include <span>

namespace dissem::norm_baseline {

void fill_payload(std::uint32_t index, std::span<char> out);
// True when `data` is exactly what fill_payload(index, ...) writes.
bool payload_matches(std::uint32_t index, std::span<const char> data);

}  // namespace dissem::norm_baseline
