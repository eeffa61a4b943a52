// Cutting a message into self-describing fragments, and reading the message
// metadata back out of a received fragment header.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "engine/types.h"
#include "wire.pb.h"

namespace dissem::engine {

// (offset, length) of each fragment of a `total`-byte message.
std::vector<std::pair<std::uint32_t, std::uint32_t>> fragment_layout(std::uint32_t total,
                                                                     std::uint32_t payload_size);

// `forwarder` is set only on rebroadcasts (hops > 0); 0 leaves the field out.
void fill_fragment(wire::DataFragment& out, const MessageMeta& meta, std::uint32_t offset,
                   std::span<const std::uint8_t> payload, bool repair, std::uint32_t hops, NodeId forwarder = 0);

MessageMeta meta_of(const wire::DataFragment& d);

}  // namespace dissem::engine
