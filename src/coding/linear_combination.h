// Linear combinations over GF(2^8), computed by Intel ISA-L (SIMD). The only
// place the engine multiplies in the field; no GF arithmetic of our own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace dissem::engine::coding {

// out = sum_i coefs[i] * rows[i], each row `length` bytes; coefs.size() == rows.size() >= 1.
void combine(std::span<const std::uint8_t* const> rows, std::span<const std::uint8_t> coefs, std::size_t length,
             std::uint8_t* out);

// outs[j] = sum_i matrix[j * rows.size() + i] * rows[i] for j < outs.size():
// several outputs in one pass (what a publisher's parity or a decoder's
// recovery of several source symbols needs).
void combine_many(std::span<const std::uint8_t* const> rows, std::span<const std::uint8_t> matrix,
                  std::size_t length, std::span<std::uint8_t* const> outs);

}  // namespace dissem::engine::coding
