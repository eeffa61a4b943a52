// Version 3's data frame: a DataFragment framed by hand, because protobuf's
// one-byte field tags alone would exceed the header budget of a small
// message on a 75 bit/s link. Layout (docs/protocol.md, "Data frames"):
//
//   prefix 0x31 | flags | [flags2] | publisher u32 | group | seq varint |
//   [offset varint, total_length varint] | [digest u64] | options... | payload
//
// Every optional field is announced by a flag bit and costs nothing when
// absent. A whole message (one fragment) needs no offset or length, and no
// digest either: the receiver computes it from the payload, so a small
// message in a group whose reference is known costs 8 to 10 bytes of header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wire/decode_error.h"
#include "wire.pb.h"
#include "wire/group_refs.h"

namespace dissem::wire {

// How to frame one DataFragment.
struct DataEncoding {
  std::uint32_t group_ref = 0;   // the publisher's ref for the group; 0 = none known
  bool with_name = true;         // the name in full (forced when group_ref is 0)
  bool explicit_digest = false;  // the digest also where the receiver could compute it
};

// What a bundle carries from one data frame to the next: a frame marked
// "context" reuses the previous frame's publisher and group, and states its
// sequence number as a difference.
struct DataContext {
  bool valid = false;
  std::uint32_t publisher = 0;
  std::uint32_t group_ref = 0;
  std::string group;
  std::uint64_t seq = 0;
};

// What decoding saw besides the fragment itself.
struct DataFrameInfo {
  std::uint32_t group_ref = 0;  // the ref the frame used or announced; 0 = none
  bool named = false;           // the frame carried the group's name (an announcement when group_ref != 0)
};

void encode_data(const DataFragment& m, const DataEncoding& e, std::vector<std::uint8_t>& out);
std::size_t data_frame_size(const DataFragment& m, const DataEncoding& e);
// ... as if its payload were `payload` bytes long (what it would cost with them).
std::size_t data_frame_size(const DataFragment& m, const DataEncoding& e, std::size_t payload);

// `body` is the frame after its prefix byte. `refs` resolves short group
// references (nullptr: none known); `context` is the bundle's context
// (nullptr outside bundles), updated after every data frame.
std::optional<DecodeError> decode_data(std::span<const std::uint8_t> body, const GroupRefs* refs,
                                               DataContext* context, DataFragment& out, DataFrameInfo& info);

// `frame` (a whole data frame, prefix included) rewritten to lean on the
// previous data frame of the same bundle, when it names the same publisher
// and group; otherwise unchanged. Updates `context` either way.
std::vector<std::uint8_t> compact_in_bundle(std::span<const std::uint8_t> frame, DataContext& context);

}  // namespace dissem::wire
