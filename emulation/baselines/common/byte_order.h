// Fixed-size big-endian fields after a 4-byte magic: the small application
// headers the baseline programs put in front of their data (dissem-norm's
// NORM_INFO, dissem-pgm's APDU header) are packed with these.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace dissem::baseline {

// Marks a header as ours, so that data from some other program on the same
// group and port is told apart.
using Magic = std::array<unsigned char, 4>;

// Writes the low `bytes` bytes of `value` at `out`, most significant first.
inline void put_be(char* out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) {
    out[i] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
}

// Reads `bytes` bytes at `in`, most significant first.
inline std::uint64_t get_be(const char* in, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | static_cast<unsigned char>(in[i]);
  return value;
}

// Packs fields one after the other from `out`.
class BigEndianWriter {
 public:
  explicit BigEndianWriter(char* out) : at_(out) {}
  BigEndianWriter& magic(const Magic& magic) {
    for (unsigned char c : magic) *at_++ = static_cast<char>(c);
    return *this;
  }
  BigEndianWriter& u32(std::uint32_t value) { return put(value, 4); }
  BigEndianWriter& i64(std::int64_t value) { return put(static_cast<std::uint64_t>(value), 8); }

 private:
  BigEndianWriter& put(std::uint64_t value, int bytes) {
    put_be(at_, value, bytes);
    at_ += bytes;
    return *this;
  }
  char* at_;
};

// Unpacks fields one after the other from `in`, which holds all of them.
class BigEndianReader {
 public:
  explicit BigEndianReader(const char* in) : at_(in) {}
  // True when the next bytes are `magic`.
  bool magic(const Magic& magic) {
    for (unsigned char c : magic) {
      if (static_cast<unsigned char>(*at_++) != c) return false;
    }
    return true;
  }
  std::uint32_t u32() { return static_cast<std::uint32_t>(get(4)); }
  std::int64_t i64() { return static_cast<std::int64_t>(get(8)); }

 private:
  std::uint64_t get(int bytes) {
    std::uint64_t value = get_be(at_, bytes);
    at_ += bytes;
    return value;
  }
  const char* at_;
};

}  // namespace dissem::baseline
