// What the decoder says of a datagram it refuses (wire/codec.h,
// wire/data_frame.h): one reason per datagram, each counted by the engine
// (engine/stats.h, Stats::malformed) and shown by name in its stats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace dissem::wire {

// Why a received datagram was dropped before it reached protocol logic.
enum class DecodeError : std::uint8_t {
  Empty = 0,
  BadVersion,
  UnknownKind,
  Unparseable,      // protobuf refused it (truncated, bad varint, ...)
  BadGroup,         // empty or longer than the limit
  BadLength,        // total length zero or above the maximum message size
  BadRange,         // fragment or requested range outside [0, total_length)
  OversizedRequest,  // an MFR asks for more than the per-request limit
  BadDigest,         // verification data missing where required, or of the wrong size
  BadSupersession,   // replace without a tag, cancel ending nothing, superseded ranges not older and ascending
  UnknownGroupRef    // a data frame names its group by a reference this node has not learnt (yet)
};
constexpr std::size_t kDecodeErrors = 11;

constexpr std::string_view decode_error_name(DecodeError e) {
  constexpr std::string_view names[] = {"empty",     "bad_version", "unknown_kind", "unparseable",
                                        "bad_group", "bad_length",  "bad_range",    "oversized_request", "bad_digest",
                                        "bad_supersession", "unknown_group_ref"};
  return names[static_cast<std::size_t>(e)];
}

}  // namespace dissem::wire
