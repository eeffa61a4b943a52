// Payloads that carry their own measurement: an experiment's publisher
// stamps each message with its index and the publish time, and fills the
// rest with bytes derived from the index, so a receiver on the same clock
// (emulated nodes share the host's) measures latency and checks content
// without any side channel. The NORM baseline uses the same idea.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dissem::load {

struct Stamp {
  std::uint32_t index = 0;
  std::uint64_t published_unix_us = 0;
};

// Smallest message that holds a stamp.
inline constexpr std::size_t kStampBytes = 16;

// A message of `size` bytes (at least kStampBytes) stamped with `stamp`.
std::vector<std::uint8_t> make_payload(std::size_t size, const Stamp& stamp);

// The stamp of a payload made by make_payload, if the magic matches and every
// filler byte is what that index produces; nullopt for anything else.
std::optional<Stamp> check_payload(std::span<const std::uint8_t> payload);

}  // namespace dissem::load
