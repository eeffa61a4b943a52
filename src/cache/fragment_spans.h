// Which fragments of a file-backed message are held, as stored in the
// `file_spans` table: runs of equal-length fragments that follow each other.
//
// Each run is 12 bytes, little-endian: the first fragment's offset (u32), the
// fragments' length (u32) and how many there are (u32). A message received
// in order is one run plus one for its shorter last fragment, so the index of
// a file-backed message costs a few bytes per commit instead of a row per
// fragment. Fragment boundaries are kept exactly: repairs are served with the
// boundaries they were received with.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dissem::cache {

// (offset, length) of each fragment.
using FragmentList = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Encodes `fragments` in the order given, joining each fragment to the run
// before it when it continues that run with the same length.
std::vector<std::uint8_t> encode_spans(const FragmentList& fragments);

// The fragments of an encoded list, in stored order. Throws StoreError if the
// bytes are not such a list (a length not a multiple of 12, an empty run, a
// run of several empty fragments, or one running past 4 GiB).
FragmentList decode_spans(std::span<const std::uint8_t> bytes);

}  // namespace dissem::cache
