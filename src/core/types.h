// Vocabulary types shared by the engine, the cache and the hosts (daemon, simulator).
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dissem {

// All engine time is microseconds on the host's clock. The daemon feeds Unix
// time; the simulator feeds virtual time starting at a fixed Unix epoch so
// that absolute expiry works the same way in both.
using Micros = std::int64_t;
using NodeId = std::uint32_t;

constexpr Micros kMillis = 1000;
constexpr Micros kSeconds = 1000 * kMillis;

inline std::uint32_t to_unix_seconds(Micros t) { return static_cast<std::uint32_t>(t / kSeconds); }
inline std::uint64_t to_unix_millis(Micros t) { return t <= 0 ? 0 : static_cast<std::uint64_t>(t / kMillis); }

// A message is named by its group, its publisher and the publisher's
// per-group sequence number. Every fragment carries all three.
struct MessageId {
  std::string group;
  NodeId publisher = 0;
  std::uint64_t seq = 0;

  auto operator<=>(const MessageId&) const = default;
  bool operator==(const MessageId&) const = default;
};

// A (group, publisher) pair: the unit in which sequence numbers are counted.
struct StreamId {
  std::string group;
  NodeId publisher = 0;

  auto operator<=>(const StreamId&) const = default;
  bool operator==(const StreamId&) const = default;
};

inline StreamId stream_of(const MessageId& m) { return {m.group, m.publisher}; }

// Everything the header of each fragment says about its message.
struct MessageMeta {
  MessageId id;
  std::uint32_t total_length = 0;
  std::uint32_t priority = 0;
  std::uint64_t expiry_ms = 0;  // absolute Unix milliseconds; 0 = never expires
  std::uint32_t history_window = 0;
  std::string tag;
  // Supersession (engine/ending/supersession.h): `replace` ends the stream's older
  // messages with the same tag; `supersedes` names older sequence numbers
  // it ends, as flat [begin, end) pairs; a `cancel` message only ends others
  // (no payload of its own, never delivered).
  bool replace = false;
  bool cancel = false;
  std::vector<std::uint64_t> supersedes;
  // Verification data (wire/message_digest.h), carried by every fragment
  // and coded symbol. 0 = unknown: only messages cached before digests
  // existed, until their digest is computed or learnt.
  std::uint64_t digest = 0;
  // Keyed groups: the publisher's signature over the manifest (64 bytes,
  // engine/security/message_signature.h) and its group key's epoch; empty in open
  // groups. Kept with the message so any holder can serve it signed.
  std::string signature;
  std::uint32_t key_epoch = 0;
  // Keyed groups: the link to the publisher's previous message of the
  // stream (16 bytes, engine/security/manifest_chain.h), signed with the manifest;
  // empty when the publisher had none (its first message after a restart).
  std::string chain;

  bool expired_at(Micros now) const { return expiry_ms != 0 && to_unix_millis(now) >= expiry_ms; }
  // Whether this message ends others (replace or cancel).
  bool supersedes_any() const { return replace || cancel || !supersedes.empty(); }
};

struct MessageIdHash {
  std::size_t operator()(const MessageId& m) const noexcept {
    std::size_t h = std::hash<std::string>{}(m.group);
    h ^= (static_cast<std::size_t>(m.publisher) << 32 | m.publisher) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= std::hash<std::uint64_t>{}(m.seq) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

struct StreamIdHash {
  std::size_t operator()(const StreamId& s) const noexcept {
    return std::hash<std::string>{}(s.group) ^ (std::hash<std::uint32_t>{}(s.publisher) * 0x9e3779b97f4a7c15ULL);
  }
};

}  // namespace dissem
