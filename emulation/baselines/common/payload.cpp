#include "payload.h"

#include <cstring>

namespace dissem::baseline {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

// Word k (bytes 8k..8k+7) of message `index`: the (k+1)-th output of a
// splitmix64 generator seeded per message, computed directly so that any
// word can be made without the ones before it. Different per message, so
// that a receiver that mixed up two messages of equal size sees a mismatch.
std::uint64_t word_at(std::uint32_t index, std::uint64_t k) {
  std::uint64_t z = (0x6E6F726D00000000ull ^ index) + (k + 1) * kGolden;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Calls sink(position in the piece, bytes, length) for the parts of
// consecutive words that cover [offset, offset + size); stops when it
// returns false.
template <typename Sink>
void generate(std::uint32_t index, std::uint64_t offset, std::size_t size, Sink&& sink) {
  std::size_t done = 0;
  while (done < size) {
    std::uint64_t at = offset + done;
    std::uint64_t word = word_at(index, at / 8);
    char bytes[8];
    std::memcpy(bytes, &word, 8);
    std::size_t skip = static_cast<std::size_t>(at % 8);
    std::size_t length = size - done < 8 - skip ? size - done : 8 - skip;
    if (!sink(done, bytes + skip, length)) return;
    done += length;
  }
}

}  // namespace

void fill_payload(std::uint32_t index, std::uint64_t offset, std::span<char> out) {
  generate(index, offset, out.size(), [&](std::size_t at, const char* bytes, std::size_t length) {
    std::memcpy(out.data() + at, bytes, length);
    return true;
  });
}

bool payload_matches(std::uint32_t index, std::uint64_t offset, std::span<const char> data) {
  bool same = true;
  generate(index, offset, data.size(), [&](std::size_t at, const char* bytes, std::size_t length) {
    same = std::memcmp(data.data() + at, bytes, length) == 0;
    return same;
  });
  return same;
}

}  // namespace dissem::baseline
