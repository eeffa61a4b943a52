#include "cache/fragment_spans.h"

#include <string>

#include "cache/store.h"

namespace dissem::cache {
namespace {

constexpr std::size_t kRunBytes = 12;

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}

std::uint32_t get_u32(std::span<const std::uint8_t> bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int b = 0; b < 4; ++b) v |= std::uint32_t{bytes[at + static_cast<std::size_t>(b)]} << (8 * b);
  return v;
}

struct Run {
  std::uint32_t offset;
  std::uint32_t length;
  std::uint32_t count;
};

}  // namespace

std::vector<std::uint8_t> encode_spans(const FragmentList& fragments) {
  std::vector<Run> runs;
  for (const auto& [offset, length] : fragments) {
    if (!runs.empty()) {
      Run& last = runs.back();
      const std::uint64_t end = std::uint64_t{last.offset} + std::uint64_t{last.length} * last.count;
      if (length != 0 && last.length == length && end == offset) {
        ++last.count;
        continue;
      }
    }
    runs.push_back(Run{offset, length, 1});
  }
  std::vector<std::uint8_t> out;
  out.reserve(runs.size() * kRunBytes);
  for (const Run& r : runs) {
    put_u32(out, r.offset);
    put_u32(out, r.length);
    put_u32(out, r.count);
  }
  return out;
}

FragmentList decode_spans(std::span<const std::uint8_t> bytes) {
  if (bytes.size() % kRunBytes != 0)
    throw StoreError("cache index: a fragment span list of " + std::to_string(bytes.size()) +
                     " bytes is not a whole number of runs");
  FragmentList out;
  for (std::size_t at = 0; at < bytes.size(); at += kRunBytes) {
    const Run r{get_u32(bytes, at), get_u32(bytes, at + 4), get_u32(bytes, at + 8)};
    const std::uint64_t end = std::uint64_t{r.offset} + std::uint64_t{r.length} * r.count;
    if (r.count == 0 || (r.length == 0 && r.count != 1) || end > (std::uint64_t{1} << 32))
      throw StoreError("cache index: invalid fragment span (offset " + std::to_string(r.offset) + ", length " +
                       std::to_string(r.length) + ", count " + std::to_string(r.count) + ")");
    for (std::uint32_t i = 0; i < r.count; ++i) out.emplace_back(r.offset + i * r.length, r.length);
  }
  return out;
}

}  // namespace dissem::cache
