// The small application header the sender puts in each object's NORM_INFO
// (NormDataEnqueue's info argument), so that a receiver knows which message
// an object is and when it was enqueued: latency = completion - enqueue,
// both read from the same machine clock in the emulation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace dissem::norm_baseline {

struct MessageInfo {
  std::uint32_t index = 0;              // position in the sender's --messages list
  std::int64_t enqueue_unix_us = 0;     // sender's wall clock at NormDataEnqueue
};

// Magic (4) + index (4) + enqueue time (8), big-endian. The magic guards
// against objects from some other NORM sender on the same group and port.
inline constexpr std::size_t kMessageInfoBytes = 16;

std::array<char, kMessageInfoBytes> encode_message_info(const MessageInfo& info);
std::optional<MessageInfo> decode_message_info(const char* data, std::size_t size);

}  // namespace dissem::norm_baseline
