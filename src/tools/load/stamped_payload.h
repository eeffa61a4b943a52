// Payloads that carry their own measurement: an experiment's publisher
// stamps each message with its stream, its index in the stream and the time
// it was produced, and fills the rest with bytes derived from stream and
// index, so a receiver on the same clock (emulated nodes share the host's)
// measures latency per stream and checks content without any side channel.
// dissem-load and the TCP baseline (emulation/baselines/tcp) send these; the
// NORM baseline uses the same idea.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dissem::load {

struct Stamp {
  std::uint32_t index = 0;               // the message's position in its stream
  std::uint64_t published_unix_us = 0;   // when the message was produced
  std::uint32_t stream = 0;              // the workload's stream (0 without a plan)
};

// Smallest message that holds a stamp: magic, stream, index, time.
inline constexpr std::size_t kStampBytes = 20;

// A message of `size` bytes (at least kStampBytes) stamped with `stamp`.
// Now, in microseconds since the Unix epoch: the clock stamps are read against.
std::uint64_t unix_us();

std::vector<std::uint8_t> make_payload(std::size_t size, const Stamp& stamp);

// The stamp of a payload made by make_payload, if the magic matches and every
// filler byte is what that stream and index produce; nullopt for anything else.
std::optional<Stamp> check_payload(std::span<const std::uint8_t> payload);

}  // namespace dissem::load
