#include "apdu_header.h"

namespace dissem::pgm_baseline {
namespace {

constexpr std::array<unsigned char, 4> kMagic = {'D', 'P', 'G', '1'};

void put_be(char* out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) {
    out[i] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
}

std::uint64_t get_be(const char* in, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | static_cast<unsigned char>(in[i]);
  return value;
}

}  // namespace

std::array<char, kApduHeaderBytes> encode_apdu_header(const ApduHeader& header) {
  std::array<char, kApduHeaderBytes> out{};
  for (std::size_t i = 0; i < kMagic.size(); ++i) out[i] = static_cast<char>(kMagic[i]);
  put_be(out.data() + 4, header.index, 4);
  put_be(out.data() + 8, header.message_bytes, 4);
  put_be(out.data() + 12, header.offset, 4);
  put_be(out.data() + 16, static_cast<std::uint64_t>(header.enqueue_unix_us), 8);
  return out;
}

std::optional<ApduHeader> decode_apdu_header(const char* data, std::size_t size) {
  if (data == nullptr || size < kApduHeaderBytes) return std::nullopt;
  for (std::size_t i = 0; i < kMagic.size(); ++i) {
    if (static_cast<unsigned char>(data[i]) != kMagic[i]) return std::nullopt;
  }
  ApduHeader header;
  header.index = static_cast<std::uint32_t>(get_be(data + 4, 4));
  header.message_bytes = static_cast<std::uint32_t>(get_be(data + 8, 4));
  header.offset = static_cast<std::uint32_t>(get_be(data + 12, 4));
  header.enqueue_unix_us = static_cast<std::int64_t>(get_be(data + 16, 8));
  return header;
}

std::uint64_t apdu_count(const std::vector<std::uint32_t>& message_sizes, std::size_t payload) {
  std::uint64_t per = data_per_apdu(payload);
  std::uint64_t count = 0;
  for (auto size : message_sizes) count += (size + per - 1) / per;
  return count;
}

}  // namespace dissem::pgm_baseline
