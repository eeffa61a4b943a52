// What the gateway bridges, and when: a deterministic state machine fed NORM
// objects and dissem deliveries with the time, emitting what to publish
// into dissem and what to enqueue on NORM. No I/O, so every rule is tested
// without sockets (tests/unit/norm_gateway_bridge_test.cpp).
//
// Rules:
// - A message never goes back to the side it came from: a NORM object whose
//   info says it was bridged from this dissem domain is not published into
//   dissem, and a dissem message whose tag says it was bridged from this
//   NORM domain is not enqueued on NORM (loops_prevented). This holds for
//   any number of gateways between the same two networks.
// - Several gateways between the same networks bridge each message about
//   once: each waits a random holdoff (0 to holdoff) before bridging, and
//   drops its copy when another gateway's copy shows up meanwhile (on NORM,
//   its info; in dissem, a message with the same origin tag from another
//   publisher), within duplicate_window (duplicates_suppressed).
// - A message is bridged at most once per gateway, however often it is
//   delivered (a durable subscription redelivers what was not acknowledged).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/types.h"
#include "tools/norm_gateway/bridge_origin.h"

namespace dissem::norm_gateway {

struct BridgeSettings {
  std::string norm_domain = "norm";
  std::string dissem_domain = "dissem";
  bool norm_to_dissem = true;
  bool dissem_to_norm = true;
  Micros holdoff = 0;
  Micros duplicate_window = 60 * kSeconds;
  std::size_t max_message_bytes = 16u << 20;
  // How many bridged and seen messages each direction remembers.
  std::size_t memory = 65536;
};

struct ToDissem {
  std::string tag;
  std::vector<std::uint8_t> payload;
};

struct ToNorm {
  MessageId id;
  std::vector<std::uint8_t> info;
  std::vector<std::uint8_t> data;
};

struct BridgeCounters {
  std::uint64_t norm_objects = 0;       // complete NORM objects received
  std::uint64_t dissem_deliveries = 0;  // messages delivered by dissemd
  std::uint64_t to_dissem = 0;          // published into dissem
  std::uint64_t to_norm = 0;            // enqueued on NORM
  std::uint64_t loops_prevented = 0;    // would have gone back where they came from
  std::uint64_t duplicates_suppressed = 0;
  std::uint64_t too_large = 0;          // above max_message_bytes, dropped
  std::uint64_t not_bridged = 0;        // their direction is turned off
};

class BridgePolicy {
 public:
  BridgePolicy(BridgeSettings settings, std::uint64_t seed);

  // This gateway's own node id in dissem: its publications come back as
  // deliveries and are not another gateway's copies.
  void set_own_publisher(NodeId id) { own_publisher_ = id; }

  // A NORM object's info, as soon as it is known (before the data is).
  void norm_info(Micros now, std::span<const std::uint8_t> info);
  void norm_object(Micros now, std::uint32_t sender, std::vector<std::uint8_t> info,
                   std::vector<std::uint8_t> data);
  // True when the message waits to go to NORM (acknowledge it once it has
  // gone); false when it was dropped by a rule (acknowledge it now).
  bool dissem_delivery(Micros now, const MessageMeta& meta, std::vector<std::uint8_t> payload);

  // Another publisher's copy of a message is known (a delivery, or the
  // metadata of one still arriving): if its tag names a NORM object of our
  // domain, our own copy of that object is not published.
  void dissem_copy_seen(Micros now, NodeId publisher, const std::string& tag);
  // Whether some NORM object is due to be published by `now`.
  bool dissem_due(Micros now) const;

  // What is due by `now`, in the order it became pending.
  std::vector<ToDissem> take_due_dissem(Micros now);
  std::vector<ToNorm> take_due_norm(Micros now);
  // A ToDissem that could not be published yet (dissemd away or full): due again at `at`.
  void retry_dissem(ToDissem item, Micros at);
  void retry_norm(ToNorm item, Micros at);
  std::optional<Micros> next_deadline() const;
  std::size_t pending() const { return to_dissem_.size() + to_norm_.size(); }

  const BridgeCounters& counters() const { return counters_; }

 private:
  // Bounded memory of keys, oldest forgotten first; a key remembers when
  // it was last seen.
  template <typename Key>
  class Recent {
   public:
    explicit Recent(std::size_t capacity) : capacity_(capacity) {}
    void note(const Key& key, Micros at);
    std::optional<Micros> last(const Key& key) const;

   private:
    std::size_t capacity_;
    std::map<Key, Micros> seen_;
    std::deque<Key> order_;
  };

  struct PendingDissem {
    Micros due;
    Micros received;
    ToDissem item;
  };
  struct PendingNorm {
    Micros due;
    ToNorm item;
  };
  using Key = std::pair<NodeId, std::uint64_t>;  // (publisher, seq) in the one bridged group

  Micros holdoff_delay();
  bool seen_on_norm_since(const Key& key, Micros since) const;
  bool other_copy_in_dissem_since(const std::string& tag, Micros since) const;

  BridgeSettings s_;
  std::mt19937_64 rng_;
  std::optional<NodeId> own_publisher_;
  Recent<Key> seen_on_norm_;           // dissem messages other gateways put on NORM
  Recent<Key> sent_to_norm_;           // dissem messages this gateway handled
  Recent<std::string> other_in_dissem_;  // NORM origin tags other gateways published
  std::deque<PendingDissem> to_dissem_;
  std::deque<PendingNorm> to_norm_;
  BridgeCounters counters_;
};

}  // namespace dissem::norm_gateway
