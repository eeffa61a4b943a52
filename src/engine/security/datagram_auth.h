// Network authentication: with a network key configured, every datagram a
// node sends ends with a 32-byte trailer, and a node refuses every datagram
// whose trailer does not verify under one of its network keys. An outsider
// (no network key) can then neither steer repairs with requests, advertise
// phantom streams or neighbours in beacons, poison interest tables, nor
// inject data: whatever it sends is counted and dropped before decoding.
//
// Trailer (after the framed message; integers little-endian):
//   u32 sender      node id of the node that put the datagram on the air
//   u64 counter     the sender's transmission counter: strictly increasing,
//                   kept at or above its clock in microseconds, so it keeps
//                   increasing across restarts
//   u32 epoch       the network key's epoch
//   16 B tag        keyed BLAKE2b (libsodium crypto_generichash, 16-byte
//                   output, the epoch's 32-byte key) of every byte before it
//
// A receiver keeps, per sender, the newest counter and the recent ones
// (ReplayGuard): a datagram heard again (a replay, however valid) changes
// nothing. Reordering up to SecurityConfig::replay_window_us is tolerated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "engine/security/security_config.h"
#include "core/types.h"

namespace dissem::engine {

constexpr std::size_t kAuthTrailerBytes = 32;

// Appends the trailer to `datagram`.
void seal_datagram(std::vector<std::uint8_t>& datagram, const SymmetricKey& key, std::uint32_t epoch, NodeId sender,
                   std::uint64_t counter);

struct OpenedDatagram {
  std::span<const std::uint8_t> frame;  // the datagram without its trailer
  NodeId sender = 0;
  std::uint64_t counter = 0;
  std::uint32_t epoch = 0;  // of the key that sealed it
};

// The frame and who sealed it, if the trailer verifies under the key of its
// epoch in `keys`; nothing otherwise (no trailer, unknown epoch, bad tag).
std::optional<OpenedDatagram> open_datagram(std::span<const std::uint8_t> datagram,
                                            const std::map<std::uint32_t, SymmetricKey>& keys);

class ReplayGuard {
 public:
  ReplayGuard(std::size_t max_senders, std::uint64_t window) : max_senders_(max_senders), window_(window) {}
  // True, and remembered, the first time `counter` is heard from `sender`
  // within the window; false for a repeat or anything older than the window.
  bool accept(NodeId sender, std::uint64_t counter);
  std::size_t senders() const { return senders_.size(); }

 private:
  static constexpr std::size_t kRecent = 64;
  struct Sender {
    std::uint64_t newest = 0;
    std::vector<std::uint64_t> recent;  // counters accepted within the window, at most kRecent
  };
  std::size_t max_senders_;
  std::uint64_t window_;
  std::unordered_map<NodeId, Sender> senders_;
};

}  // namespace dissem::engine
