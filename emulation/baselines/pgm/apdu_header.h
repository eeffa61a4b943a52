// The small application header at the front of every APDU dissem-pgm sends:
// which message the APDU belongs to, where its bytes go, and when the
// message was enqueued, so that a receiver can check and time every message
// (latency = completion - enqueue, both read from the same machine clock in
// the emulation). Every APDU carries it, so that each one can be placed on
// its own, also after an unrecoverable loss (PGM_IO_STATUS_RESET) or by a
// receiver that joined mid-message.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace dissem::pgm_baseline {

struct ApduHeader {
  std::uint32_t index = 0;              // position in the sender's --messages list
  std::uint32_t message_bytes = 0;      // the whole message's size
  std::uint32_t offset = 0;             // of this APDU's data in the message
  std::int64_t enqueue_unix_us = 0;     // sender's wall clock when the message's first APDU was handed to PGM
};

// Magic (4) + index (4) + message size (4) + offset (4) + enqueue time (8),
// big-endian. The magic guards against APDUs from some other PGM sender on
// the same group and port.
inline constexpr std::size_t kApduHeaderBytes = 24;

std::array<char, kApduHeaderBytes> encode_apdu_header(const ApduHeader& header);
// nullopt: too short, or not ours.
std::optional<ApduHeader> decode_apdu_header(const char* data, std::size_t size);

// Message bytes per APDU of `payload` bytes, and the APDUs that messages of
// these sizes take.
inline std::size_t data_per_apdu(std::size_t payload) { return payload - kApduHeaderBytes; }
std::uint64_t apdu_count(const std::vector<std::uint32_t>& message_sizes, std::size_t payload);

}  // namespace dissem::pgm_baseline
