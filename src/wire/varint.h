// LEB128 varints (as protobuf writes them) and little-endian fixed-width
// integers for the hand-framed kinds (data frames, bundles). Reading is
// bounds-checked: a truncated or over-long number makes the reader fail,
// never read past the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace dissem::wire {

constexpr std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

inline void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

inline void put_fixed(std::vector<std::uint8_t>& out, std::uint64_t v, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

inline void put_bytes(std::vector<std::uint8_t>& out, std::string_view s) {
  out.insert(out.end(), s.begin(), s.end());
}

// Signed deltas as unsigned varints (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...).
constexpr std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
constexpr std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

// A cursor over received bytes. Every read checks the bounds; after one
// failure `ok()` stays false and reads return zeros.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  bool ok() const { return ok_; }
  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return ok_ ? bytes_.size() - pos_ : 0; }
  std::span<const std::uint8_t> rest() const { return ok_ ? bytes_.subspan(pos_) : std::span<const std::uint8_t>{}; }

  std::uint8_t byte() {
    if (!need(1)) return 0;
    return bytes_[pos_++];
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!need(1)) return 0;
      const std::uint8_t b = bytes_[pos_++];
      // The tenth byte may only hold the top bit of a 64-bit value.
      if (shift == 63 && b > 1) return fail();
      v |= std::uint64_t{b & 0x7fu} << shift;
      if ((b & 0x80) == 0) return v;
    }
    return fail();
  }
  std::uint64_t fixed(std::size_t n) {
    if (!need(n)) return 0;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{bytes_[pos_ + i]} << (8 * i);
    pos_ += n;
    return v;
  }
  std::span<const std::uint8_t> take(std::size_t n) {
    if (!need(n)) return {};
    const auto s = bytes_.subspan(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  bool need(std::size_t n) {
    if (ok_ && bytes_.size() - pos_ >= n) return true;
    ok_ = false;
    return false;
  }
  std::uint64_t fail() {
    ok_ = false;
    return 0;
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace dissem::wire
