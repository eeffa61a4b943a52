// How a message is cut into coding blocks. Fragment i of a message (stride
// bytes each, the last one shorter) is source symbol i % K of block i / K;
// every symbol of a block is `symbol_size()` bytes, the last source
// zero-padded. The layout follows from three numbers every fragment and
// coded symbol carries (total length, stride, K), so any node computes it.
#pragma once

#include <algorithm>
#include <cstdint>

namespace dissem::engine::coding {

struct BlockLayout {
  std::uint32_t total = 0;          // message bytes, > 0
  std::uint32_t stride = 0;         // fragment payload size, 0 < stride <= total
  std::uint32_t block_symbols = 64;  // K, 1..255

  std::uint32_t symbol_size() const { return stride; }
  std::uint32_t fragments() const { return static_cast<std::uint32_t>((std::uint64_t{total} + stride - 1) / stride); }
  std::uint32_t blocks() const { return (fragments() + block_symbols - 1) / block_symbols; }
  // Source symbols in `block` (K, fewer in the last block).
  std::uint32_t symbols_in(std::uint32_t block) const {
    return std::min(block_symbols, fragments() - block * block_symbols);
  }
  std::uint32_t block_of(std::uint32_t offset) const { return offset / stride / block_symbols; }
  // Byte range [begin, end) of the message that `block` covers.
  std::uint32_t begin(std::uint32_t block) const {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{block} * block_symbols * stride, total));
  }
  std::uint32_t end(std::uint32_t block) const { return begin(block + 1); }
  std::uint32_t source_offset(std::uint32_t block, std::uint32_t i) const {
    return begin(block) + i * stride;
  }
  std::uint32_t source_length(std::uint32_t block, std::uint32_t i) const {
    return std::min(stride, total - source_offset(block, i));
  }
  bool operator==(const BlockLayout&) const = default;
};

// The stride of a message implied by one of its fragments, if that fragment
// tells: any fragment but the last has the stride as its length, and a
// message of one fragment is its own stride.
inline std::uint32_t stride_from_fragment(std::uint32_t total, std::uint32_t offset, std::uint32_t length) {
  if (offset + length < total) return length;
  if (offset == 0) return length;
  return 0;  // the last fragment of several: shorter than the stride, or not
}

}  // namespace dissem::engine::coding
