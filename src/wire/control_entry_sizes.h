// How many bytes each entry of a control frame takes on the wire: the
// missing-fragment request (MFR), the beacon and the anti-entropy summary.
// Each is an upper bound on the entry's encoding within a frame of at most
// `limit` bytes (tests/unit/control_entry_sizes_test.cpp checks them against
// the real encoding), except where named an estimate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "wire.pb.h"
#include "wire/frame_budget.h"

namespace dissem::wire {

// --- MissingFragmentRequest ---
// The kind prefix and the requester.
constexpr std::size_t mfr_header_size() { return 1 + fixed32_field(); }
// A PublisherWants opened for `group` (its messages counted apart).
std::size_t mfr_publisher_size(std::string_view group, std::size_t limit);
// A MessageWants naming `seq`, with the header of its packed ranges when it
// lists ranges (a message wanted whole or by blocks has none).
std::size_t mfr_message_size(std::uint64_t seq, bool with_ranges, std::size_t limit);
// One byte range [begin, end) in a packed ranges field.
constexpr std::size_t mfr_range_size(std::uint64_t begin, std::uint64_t end) { return packed_pair(begin, end); }
// A PublisherWants holding window requests (WindowNeed), complete.
std::size_t mfr_window_entry_size(const PublisherWants& wants, std::size_t limit);
// One coded request entry (a block's deficit).
std::size_t mfr_block_need_size(const BlockNeed& need, std::size_t limit);

// --- Beacon ---
// An estimate, not a bound: the typical size of one echo, by which a beacon
// shares itself between echoes (at most half of it, after a fixed part
// of kBeaconEchoBase bytes) and the rest. The rest is counted from the
// beacon's real size once the echoes are in.
inline constexpr std::size_t kBeaconEchoEstimate = 20;
inline constexpr std::size_t kBeaconEchoBase = 16;
// One Newest entry; zero values are not sent.
std::size_t beacon_newest_size(std::string_view group, std::uint64_t newest, std::uint64_t held_from,
                               std::uint32_t group_ref, std::uint64_t ended_below);
// One Reception entry (any loss, 0..1000 per mille).
std::size_t beacon_reception_size();
// One Interest entry: `via` 0 is not sent.
std::size_t beacon_interest_size(std::string_view group, std::uint32_t distance, bool names_via);

// --- Summary ---
// The kind prefix, the node and the reply flag.
constexpr std::size_t summary_header_size() { return 1 + fixed32_field() + varint_field(1); }
// One wanted group.
constexpr std::size_t summary_want_size(std::string_view group) { return bytes_field(group.size()); }
// One StreamHeld entry whose packed held ranges take `ranges_bytes` (the
// sum of packed_pair over them).
std::size_t summary_stream_size(std::string_view group, std::size_t ranges_bytes, std::size_t limit);

// --- Data ---
// An estimate, not a bound: the typical header of a data fragment (see
// docs/protocol.md), by which a byte budget counts a fragment's air time.
inline constexpr std::size_t kDataHeaderEstimate = 48;

}  // namespace dissem::wire
