#include "coding/coefficients.h"

#include "core/random.h"

namespace dissem::engine::coding {

void coefficients_from_seed(std::uint32_t seed, std::span<std::uint8_t> out) {
  // The seed is mixed first so that consecutive seeds give unrelated vectors.
  std::uint64_t state = 0x5eedc0de00000000ULL ^ seed;
  std::size_t filled = 0;
  while (filled < out.size()) {
    std::uint64_t word = splitmix64(state);
    for (int b = 0; b < 8 && filled < out.size(); ++b, word >>= 8) {
      const auto byte = static_cast<std::uint8_t>(word & 0xff);
      if (byte != 0) out[filled++] = byte;
    }
  }
}

}  // namespace dissem::engine::coding
