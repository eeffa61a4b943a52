#include "payload.h"

#include <cstring>

namespace dissem::norm_baseline {
namespace {

// splitmix64: cheap, and different per message so that a receiver that mixed
// up two objects of equal size would see a mismatch.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Calls sink(offset, word, length) for each 8-byte word of message `index`.
template <typename Sink>
void generate(std::uint32_t index, std::size_t size, Sink&& sink) {
  std::uint64_t state = 0x6E6F726D00000000ull ^ index;  // "norm" ^ index
  for (std::size_t offset = 0; offset < size; offset += 8) {
    std::uint64_t word = splitmix64(state);
    std::size_t length = size - offset < 8 ? size - offset : 8;
    if (!sink(offset, word, length)) return;
  }
}

}  // namespace

void fill_payload(std::uint32_t index, std::span<char> out) {
  generate(index, out.size(), [&](std::size_t offset, std::uint64_t word, std::size_t length) {
    std::memcpy(out.data() + offset, &word, length);
    return true;
  });
}

bool payload_matches(std::uint32_t index, std::span<const char> data) {
  bool same = true;
  generate(index, data.size(), [&](std::size_t offset, std::uint64_t word, std::size_t length) {
    same = std::memcmp(data.data() + offset, &word, length) == 0;
    return same;
  });
  return same;
}

}  // namespace dissem::norm_baseline
