#include "message_info.h"

#include "common/byte_order.h"

namespace dissem::norm_baseline {

static constexpr baseline::Magic kMagic = {'D', 'N', 'B', '1'};

std::array<char, kMessageInfoBytes> encode_message_info(const MessageInfo& info) {
  std::array<char, kMessageInfoBytes> out{};
  baseline::BigEndianWriter(out.data()).magic(kMagic).u32(info.index).i64(info.enqueue_unix_us);
  return out;
}

std::optional<MessageInfo> decode_message_info(const char* data, std::size_t size) {
  if (data == nullptr || size != kMessageInfoBytes) return std::nullopt;
  baseline::BigEndianReader in(data);
  if (!in.magic(kMagic)) return std::nullopt;
  return MessageInfo{in.u32(), in.i64()};  // braced: read in order
}

}  // namespace dissem::norm_baseline
