#include "apdu_header.h"

#include "common/byte_order.h"

namespace dissem::pgm_baseline {

static constexpr baseline::Magic kMagic = {'D', 'P', 'G', '1'};

std::array<char, kApduHeaderBytes> encode_apdu_header(const ApduHeader& header) {
  std::array<char, kApduHeaderBytes> out{};
  baseline::BigEndianWriter(out.data())
      .magic(kMagic)
      .u32(header.index)
      .u32(header.message_bytes)
      .u32(header.offset)
      .i64(header.enqueue_unix_us);
  return out;
}

std::optional<ApduHeader> decode_apdu_header(const char* data, std::size_t size) {
  if (data == nullptr || size < kApduHeaderBytes) return std::nullopt;
  baseline::BigEndianReader in(data);
  if (!in.magic(kMagic)) return std::nullopt;
  return ApduHeader{in.u32(), in.u32(), in.u32(), in.i64()};  // braced: read in order
}

std::uint64_t apdu_count(const std::vector<std::uint32_t>& message_sizes, std::size_t payload) {
  std::uint64_t per = data_per_apdu(payload);
  std::uint64_t count = 0;
  for (auto size : message_sizes) count += (size + per - 1) / per;
  return count;
}

}  // namespace dissem::pgm_baseline
