// Network Traffic Memory (NTM): which fragments went over the air recently.
//
// Every fragment a node sends or hears is recorded with the time. A node that
// is about to serve a repair first asks the NTM: if that fragment was on the
// air within the window, someone already answered and sending it again would
// only duplicate traffic. Entries older than the window are pruned, so memory
// is bounded by the traffic of one window.
//
// Entries are 64-bit fingerprints of (message id, offset), not the ids
// themselves: no string copies on the per-fragment path. A collision (about
// one in 2^64 per pair) could only make a node skip one repair, which the
// requester would then ask for again.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "core/types.h"

namespace dissem::engine {

struct FragmentKey {
  MessageId message;
  std::uint32_t offset = 0;
  bool operator==(const FragmentKey&) const = default;
};

struct FragmentKeyHash {
  std::size_t operator()(const FragmentKey& k) const noexcept {
    return MessageIdHash{}(k.message) ^ (std::size_t{k.offset} * 0x9e3779b97f4a7c15ULL);
  }
};

class NetworkTrafficMemory {
 public:
  explicit NetworkTrafficMemory(Micros window) : window_(window) {}

  void set_window(Micros window) { window_ = window; }
  Micros window() const { return window_; }

  void record(const FragmentKey& key, Micros now) { record(key.message, key.offset, now); }
  void record(const MessageId& message, std::uint32_t offset, Micros now);
  // True if `key` was seen at or after now - window.
  bool seen_recently(const FragmentKey& key, Micros now);
  // Last sighting within the window, if any.
  std::optional<Micros> last_seen(const FragmentKey& key, Micros now);
  std::size_t size() const { return used_; }

  static std::uint64_t fingerprint(const MessageId& message, std::uint32_t offset);

 private:
  void prune(Micros now);

  // Open addressing with linear probing: no allocation per fragment, which
  // matters on the receive path (every fragment heard is recorded).
  struct Slot {
    std::uint64_t fingerprint = 0;  // 0 = empty (fingerprints are never 0)
    Micros seen = 0;
  };
  Slot* find_slot(std::uint64_t fp);
  void erase_slot(std::size_t i);
  void grow();

  Micros window_;
  std::vector<Slot> slots_ = std::vector<Slot>(1024);
  std::size_t used_ = 0;
  // Insertion-ordered log used to prune without scanning the table.
  std::deque<std::pair<Micros, std::uint64_t>> log_;
};

}  // namespace dissem::engine
