// One block of a systematically coded message at a receiver: k source
// symbols of `symbol_size` bytes, received directly (source symbol i) or as
// linear combinations of them (coded symbols, with their coefficient
// vectors). Tracks the rank of what it holds incrementally (Gaussian
// elimination on the k-byte coefficient vectors only, so a non-innovative
// symbol is recognised and dropped at once), keeps the payloads, and once the
// rank reaches k recovers the missing source symbols in one pass: the k x k
// matrix of the held symbols is inverted (ISA-L gf_invert_matrix) and only the
// rows of the missing sources are applied (ISA-L ec_encode_data).
//
// It can also recode: a random combination of whatever it holds, useful to a
// peer before this node has the whole block (random linear network coding).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dissem::engine::coding {

class BlockDecoder {
 public:
  // 1 <= k <= 255, symbol_size >= 1.
  BlockDecoder(std::size_t k, std::size_t symbol_size);

  std::size_t k() const;
  std::size_t symbol_size() const;
  std::size_t rank() const;
  bool complete() const { return rank() == k(); }
  bool has_source(std::size_t i) const;   // received directly, or recovered by decode()
  std::size_t sources_held() const;       // received directly or recovered
  std::size_t coded_held() const;         // innovative coded symbols kept
  std::size_t memory_bytes() const;       // payload and coefficient bytes held

  // Source symbol i (i < k); data.size() <= symbol_size, zero-padded. True
  // when it raised the rank (false: held already, or implied by what is held).
  bool add_source(std::size_t i, std::span<const std::uint8_t> data);
  // coefs.size() == k, data.size() == symbol_size. True when innovative;
  // a symbol that is not is discarded (nothing kept).
  bool add_coded(std::span<const std::uint8_t> coefs, std::span<const std::uint8_t> data);

  // Once complete(): recovers every source symbol not held directly and
  // returns their indices (ascending); empty when nothing was missing or the
  // block is not complete. Idempotent: a second call returns nothing.
  std::vector<std::size_t> decode();
  // symbol_size bytes of source i; has_source(i) required.
  std::span<const std::uint8_t> source(std::size_t i) const;

  // How many independent symbols this node could give a peer that holds
  // exactly the sources whose bits are set in `peer_sources` (bit i =
  // source i, LSB first): the rank of what it holds once those sources are
  // accounted for. Exact when the peer holds no coded symbols; an upper
  // bound otherwise. Two partial holders of equal rank can each complete the
  // other (sources plus different coded symbols): ranks alone cannot tell.
  std::size_t innovative_for(std::span<const std::uint8_t> peer_sources) const;

  // A fresh random combination of everything held (weights drawn from
  // `seed`, each non-zero): writes its k coefficients over the source symbols
  // and its symbol_size payload bytes. Held sources whose bit is set in
  // `skip` (bit i = source i, LSB first) are left out: a peer that holds them
  // gains nothing from them. False (nothing written) when nothing is left.
  bool recode(std::uint64_t seed, std::span<std::uint8_t> coefs_out, std::span<std::uint8_t> data_out,
              std::span<const std::uint8_t> skip = {}) const;

 private:
  // Reduces `v` (k bytes) against the basis; returns its pivot column, or k
  // when it reduced to zero (not innovative).
  std::size_t reduce(std::vector<std::uint8_t>& v) const;
  bool insert(std::vector<std::uint8_t> coefs, std::span<const std::uint8_t> data);

  struct Held {
    std::vector<std::uint8_t> coefs;    // k bytes over the source symbols as received
    std::vector<std::uint8_t> payload;  // symbol_size bytes
  };
  std::size_t k_;
  std::size_t symbol_size_;
  std::vector<Held> held_;  // every innovative symbol, sources as unit vectors
  // Echelon basis of the held coefficient vectors: basis_[c], when not
  // empty, has its first non-zero (1) at column c.
  std::vector<std::vector<std::uint8_t>> basis_;
  std::size_t rank_ = 0;
  std::vector<std::int32_t> source_at_;                 // per source: its held_ entry, or -1
  std::vector<std::vector<std::uint8_t>> recovered_;    // per source: decoded payload (empty if none)
  bool decoded_ = false;
  mutable std::vector<std::uint8_t> scratch_;  // k bytes for reduce()
};

}  // namespace dissem::engine::coding
