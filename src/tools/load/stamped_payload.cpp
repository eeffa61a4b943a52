#include "tools/load/stamped_payload.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace dissem::load {
namespace {

constexpr std::uint32_t kMagic = 0x444c4432;  // "DLD2"

void put32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint32_t get32(const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t{p[i]} << (8 * i);
  return v;
}

// A cheap byte pattern that differs between messages (of any stream) and
// along a message, so a misplaced fragment or a mixed-up message is caught.
std::uint8_t filler(std::uint32_t stream, std::uint32_t index, std::size_t at) {
  return static_cast<std::uint8_t>((index * 131u) ^ (stream * 29u) ^ (at * 7u) ^ (at >> 8));
}

}  // namespace

std::uint64_t unix_us() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

std::vector<std::uint8_t> make_payload(std::size_t size, const Stamp& stamp) {
  if (size < kStampBytes) throw std::invalid_argument("a stamped message needs at least 16 bytes");
  std::vector<std::uint8_t> out(size);
  put32(out.data(), kMagic);
  put32(out.data() + 4, stamp.stream);
  put32(out.data() + 8, stamp.index);
  put32(out.data() + 12, static_cast<std::uint32_t>(stamp.published_unix_us));
  put32(out.data() + 16, static_cast<std::uint32_t>(stamp.published_unix_us >> 32));
  for (std::size_t i = kStampBytes; i < size; ++i) out[i] = filler(stamp.stream, stamp.index, i);
  return out;
}

std::optional<Stamp> check_payload(std::span<const std::uint8_t> payload) {
  if (payload.size() < kStampBytes || get32(payload.data()) != kMagic) return std::nullopt;
  Stamp s;
  s.stream = get32(payload.data() + 4);
  s.index = get32(payload.data() + 8);
  s.published_unix_us = get32(payload.data() + 12) | (std::uint64_t{get32(payload.data() + 16)} << 32);
  for (std::size_t i = kStampBytes; i < payload.size(); ++i)
    if (payload[i] != filler(s.stream, s.index, i)) return std::nullopt;
  return s;
}

}  // namespace dissem::load
