#include "message_info.h"

namespace dissem::norm_baseline {
namespace {

constexpr std::array<unsigned char, 4> kMagic = {'D', 'N', 'B', '1'};

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

std::array<char, kMessageInfoBytes> encode_message_info(const MessageInfo& info) {
  std::array<char, kMessageInfoBytes> out{};
  for (std::size_t i = 0; i < kMagic.size(); ++i) out[i] = static_cast<char>(kMagic[i]);
  put_be(out.data() + 4, info.index, 4);
  put_be(out.data() + 8, static_cast<std::uint64_t>(info.enqueue_unix_us), 8);
  return out;
}

std::optional<MessageInfo> decode_message_info(const char* data, std::size_t size) {
  if (data == nullptr || size != kMessageInfoBytes) return std::nullopt;
  for (std::size_t i = 0; i < kMagic.size(); ++i) {
    if (static_cast<unsigned char>(data[i]) != kMagic[i]) return std::nullopt;
  }
  MessageInfo info;
  info.index = static_cast<std::uint32_t>(get_be(data + 4, 4));
  info.enqueue_unix_us = static_cast<std::int64_t>(get_be(data + 8, 8));
  return info;
}

}  // namespace dissem::norm_baseline
