// One stream's sliding-window code at a receiver (RFC 8681 / Tetrys, RFC
// 9407, in spirit): the window symbols heard that still involve messages it
// lacks, each kept as an equation over those messages' source symbols
// (images, see WindowSymbol in proto/wire.proto). A message that arrives
// later is eliminated from every equation holding it; once a set of
// equations involves no more unknown messages than it has independent
// equations, those messages are solved (BlockDecoder, ISA-L underneath).
// Unknowns are solved per connected set, and within a set by the first run
// of equations (oldest or newest first) that determines its own unknowns,
// so an equation reaching past what is known does not hold back messages
// the others determine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace dissem::engine::coding {

class WindowDecoder {
 public:
  // Kept equations; adding one more drops the oldest.
  static constexpr std::size_t kMaxEquations = 512;

  struct Recovered {
    std::uint64_t seq = 0;
    std::vector<std::uint8_t> image;  // the equation length, zero-padded past the image
  };

  // An equation sum coefs[i] * image(seqs[i]) = payload. seqs ascending and
  // distinct, coefs non-zero and as many. Call on_source() afterwards for
  // every seq already held, so it is eliminated.
  void add(std::vector<std::uint64_t> seqs, std::vector<std::uint8_t> coefs, std::vector<std::uint8_t> payload);
  // `seq`'s image is known: eliminated from every equation. An image longer
  // than an equation's payload contradicts it (that equation is dropped).
  void on_source(std::uint64_t seq, std::span<const std::uint8_t> image);
  // Solves whatever is determined; solved equations are removed.
  std::vector<Recovered> solve();

  // Every message some equation still involves, ascending.
  std::vector<std::uint64_t> unknowns() const;
  // Whether some equation involves `seq`.
  bool involves(std::uint64_t seq) const;
  // Rank of the equations whose unknowns all lie in [first, last].
  std::size_t rank_within(std::uint64_t first, std::uint64_t last) const;
  // Drops equations involving a message before `seq` (given up, expired, or out of the window).
  void forget_before(std::uint64_t seq);
  bool empty() const { return equations_.empty(); }
  std::size_t equations() const { return equations_.size(); }
  std::size_t memory_bytes() const;

 private:
  struct Equation {
    std::vector<std::uint64_t> seqs;
    std::vector<std::uint8_t> coefs;
    std::vector<std::uint8_t> payload;
  };
  // Solves the equations `members` together, appending what they determine;
  // false when they do not determine all their unknowns.
  bool decode_set(const std::vector<std::size_t>& members, std::vector<Recovered>& out) const;
  // The smallest run of `members`, taken in order of their newest unknown
  // (oldest_first) or of their oldest unknown from the newest, that is
  // solvable on its own; empty when none is.
  std::vector<std::size_t> determined(std::vector<std::size_t> members, bool oldest_first) const;
  std::deque<Equation> equations_;
};

}  // namespace dissem::engine::coding
