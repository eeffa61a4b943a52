#include "coding/linear_combination.h"

#include <isa-l/erasure_code.h>

#include <stdexcept>
#include <vector>

namespace dissem::engine::coding {

void combine_many(std::span<const std::uint8_t* const> rows, std::span<const std::uint8_t> matrix,
                  std::size_t length, std::span<std::uint8_t* const> outs) {
  const std::size_t k = rows.size();
  if (k == 0 || outs.empty() || matrix.size() != k * outs.size())
    throw std::invalid_argument("combine_many: matrix must be outs x rows");
  if (length == 0) return;
  // ISA-L takes non-const pointers but only reads the sources and the matrix.
  std::vector<std::uint8_t> a(matrix.begin(), matrix.end());
  std::vector<std::uint8_t> tables(32 * k * outs.size());
  ec_init_tables(static_cast<int>(k), static_cast<int>(outs.size()), a.data(), tables.data());
  std::vector<std::uint8_t*> src(k);
  for (std::size_t i = 0; i < k; ++i) src[i] = const_cast<std::uint8_t*>(rows[i]);
  std::vector<std::uint8_t*> dst(outs.begin(), outs.end());
  ec_encode_data(static_cast<int>(length), static_cast<int>(k), static_cast<int>(outs.size()), tables.data(),
                 src.data(), dst.data());
}

void combine(std::span<const std::uint8_t* const> rows, std::span<const std::uint8_t> coefs, std::size_t length,
             std::uint8_t* out) {
  std::uint8_t* const outs[] = {out};
  combine_many(rows, coefs, length, outs);
}

}  // namespace dissem::engine::coding
