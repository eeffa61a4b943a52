// The source symbol a small message contributes to window coding (see
// WindowSymbol in proto/wire.proto): a 2-byte big-endian length, then the
// datagram its publisher's first pass sent for it, rebuilt canonically from
// the message's fields and bytes, so every node holding the message builds
// the same image. Recovering the image recovers the message whole, fields
// included.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/types.h"
#include "wire/codec.h"

namespace dissem::engine {

std::vector<std::uint8_t> window_image(const MessageMeta& meta, std::span<const std::uint8_t> payload);

// Whether a message of `meta` with `payload_size`-byte fragments takes part in
// window coding: one fragment, and its image no longer than a fragment's payload.
bool window_eligible(const MessageMeta& meta, std::uint32_t payload_size);

// The fragment an image holds, validated as a received datagram is; nullopt
// when the image is malformed or is not a whole message at offset 0.
std::optional<wire::DataFragment> parse_window_image(std::span<const std::uint8_t> image, const wire::Limits& limits);

}  // namespace dissem::engine
