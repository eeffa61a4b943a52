// Ethernet addressing: how a destination MAC is classified (flooded or sent
// to one node) and the deterministic MAC plan 02:h0:h1:h2:h3:<node id>, where
// h0..h3 is a hash of the prefix, so two emulations with different prefixes
// never share MACs and a node's MAC is known before it exists.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "link_effects.h"

namespace dissem::emu {

inline constexpr std::size_t kEthernetHeaderBytes = 14;

using MacAddress = std::array<std::uint8_t, 6>;

enum class FrameClass { broadcast, multicast, unicast };

// Needs at least the 6 destination bytes. The group bit (lowest bit of the
// first byte) marks broadcast and multicast alike; both are flooded.
inline FrameClass classify_destination(std::span<const std::uint8_t> frame) {
  bool all_ones = true;
  for (std::size_t i = 0; i < 6; ++i) all_ones = all_ones && frame[i] == 0xff;
  if (all_ones) return FrameClass::broadcast;
  return (frame[0] & 0x01) != 0 ? FrameClass::multicast : FrameClass::unicast;
}

inline std::string format_mac(const MacAddress& mac) {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", mac[0], mac[1], mac[2], mac[3], mac[4],
                     mac[5]);
}

class AddressPlan {
 public:
  // nodes <= 255: the node id is the last MAC byte.
  AddressPlan(std::string_view prefix, std::size_t nodes) : nodes_(nodes) {
    // 32-bit FNV-1a: stable across runs and compilers, unlike std::hash.
    std::uint32_t h = 2166136261u;
    for (char c : prefix) {
      h ^= static_cast<std::uint8_t>(c);
      h *= 16777619u;
    }
    base_ = {0x02, static_cast<std::uint8_t>(h >> 24), static_cast<std::uint8_t>(h >> 16),
             static_cast<std::uint8_t>(h >> 8), static_cast<std::uint8_t>(h), 0};
  }

  std::size_t nodes() const { return nodes_; }

  // 0x02: locally administered, unicast.
  MacAddress mac_of(NodeId node) const {
    MacAddress mac = base_;
    mac[5] = static_cast<std::uint8_t>(node);
    return mac;
  }

  // The node whose MAC `mac` (6 bytes) is, if any.
  std::optional<NodeId> owner_of(std::span<const std::uint8_t> mac) const {
    for (std::size_t i = 0; i < 5; ++i)
      if (mac[i] != base_[i]) return std::nullopt;
    const NodeId node = mac[5];
    if (node < 1 || node > nodes_) return std::nullopt;
    return node;
  }

 private:
  std::size_t nodes_;
  MacAddress base_{};
};

}  // namespace dissem::emu
