// Coefficient vectors of coded symbols. A symbol generated from a whole block
// names its coefficients by a 32-bit seed (4 bytes on the air instead of k);
// every node expands the seed the same way, so any node can verify, cache and
// decode it. Recoded symbols (combinations of a partial block) carry their
// coefficients explicitly instead.
#pragma once

#include <cstdint>
#include <span>

namespace dissem::engine::coding {

// Fills `out` with the coefficients named by `seed`: every byte non-zero
// (a zero would leave a source symbol out of the combination), deterministic
// across platforms (splitmix64 stream, no std:: distributions).
void coefficients_from_seed(std::uint32_t seed, std::span<std::uint8_t> out);

}  // namespace dissem::engine::coding
