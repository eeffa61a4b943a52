#include "wire/control_entry_sizes.h"

namespace dissem::wire {

std::size_t mfr_publisher_size(std::string_view group, std::size_t limit) {
  return nested_header(limit) + bytes_field(group.size()) + fixed32_field();
}

std::size_t mfr_message_size(std::uint64_t seq, bool with_ranges, std::size_t limit) {
  return nested_header(limit) + varint_field(seq) + (with_ranges ? nested_header(limit) : 0);
}

std::size_t mfr_window_entry_size(const PublisherWants& wants, std::size_t limit) {
  return nested_header(limit) + wants.ByteSizeLong();
}

std::size_t mfr_block_need_size(const BlockNeed& need, std::size_t limit) {
  return nested_header(limit) + need.ByteSizeLong();
}

std::size_t beacon_newest_size(std::string_view group, std::uint64_t newest, std::uint64_t held_from,
                               std::uint32_t group_ref, std::uint64_t ended_below) {
  const std::size_t inner = bytes_field(group.size()) + fixed32_field() + varint_field(newest) +
                            (held_from != 0 ? varint_field(held_from) : 0) +
                            (group_ref != 0 ? varint_field(group_ref) : 0) +
                            (ended_below != 0 ? varint_field(ended_below) : 0);
  return nested_header(inner) + inner;
}

std::size_t beacon_reception_size() {
  const std::size_t inner = fixed32_field() + varint_field(1000);
  return nested_header(inner) + inner;
}

std::size_t beacon_interest_size(std::string_view group, std::uint32_t distance, bool names_via) {
  const std::size_t inner = bytes_field(group.size()) + varint_field(distance) +
                            (names_via ? fixed32_field() : 0) + fixed32_field();
  return nested_header(inner) + inner;
}

std::size_t summary_stream_size(std::string_view group, std::size_t ranges_bytes, std::size_t limit) {
  return nested_header(limit) + bytes_field(group.size()) + fixed32_field() + nested_header(limit) + ranges_bytes;
}

}  // namespace dissem::wire
