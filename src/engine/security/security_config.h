// Keys a node holds (authenticated groups; docs/threat-model.md). Empty, the
// default, means an open network: integrity without keys only.
//
// - Network keys (32-byte secrets shared by every member) authenticate every
//   datagram with a keyed BLAKE2b tag and a replay counter
//   (engine/security/datagram_auth.h). With any network key configured, a node sends
//   every datagram sealed with the newest epoch's key and refuses datagrams
//   that are not sealed with one of its keys.
// - Group keys: an Ed25519 public key per epoch verifies a group's messages
//   (every node that caches, relays or receives the group holds it); the
//   secret signing key lets this node publish in the group; an optional
//   32-byte XChaCha20-Poly1305 key seals the group's payloads
//   (engine/security/message_signature.h, engine/security/payload_seal.h).
//
// Keys carry an epoch. Every epoch configured is accepted; the newest one
// that is due (send_from) is used to send, sign and seal. A rotation adds the
// new epoch's keys to every node with a send_from time in the future: until
// then the nodes only accept it, at that time they all switch, and the old
// keys overlap until they are removed. The engine never reads key files: the
// host (dissemd, daemon/key_files.h) loads them and fills this in.
//
// Revocation: an epoch listed in revoked_epochs is never used to send and
// nothing sealed or signed under it is taken (a leaked key); a node listed
// in revoked_publishers has none of its datagrams taken (network keys) and
// none of its new messages admitted, in any group. What was admitted before
// stays. A host may replace the whole configuration while running
// (Node::set_security): that is how a rotation or a revocation reaches a
// running node.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <optional>
#include <string>

#include "core/types.h"

namespace dissem::engine {

using SymmetricKey = std::array<std::uint8_t, 32>;
using VerifyKey = std::array<std::uint8_t, 32>;   // Ed25519 public key
using SigningKey = std::array<std::uint8_t, 64>;  // Ed25519 secret key (seed and public key)

struct GroupKeys {
  std::map<std::uint32_t, VerifyKey> verify;  // by epoch; required for a keyed group
  std::map<std::uint32_t, SigningKey> sign;   // by epoch; publishing needs one
  std::map<std::uint32_t, SymmetricKey> seal; // by epoch; empty = payloads in clear
};

struct SecurityConfig {
  std::map<std::uint32_t, SymmetricKey> network;  // by epoch; empty = datagrams not authenticated
  std::map<std::string, GroupKeys> groups;        // keyed groups, by name; others are open
  // How far (microseconds of the sender's counter) a sealed datagram may
  // arrive behind the newest one heard from its sender and still be taken
  // (reordering); older ones are replays.
  std::uint64_t replay_window_us = 2'000'000;
  // Unix seconds from which an epoch's keys (of every kind) are used to send,
  // sign and seal; epochs not listed are due at once.
  std::map<std::uint32_t, std::uint64_t> send_from;
  std::set<std::uint32_t> revoked_epochs;
  std::set<NodeId> revoked_publishers;

  // Of `keys` (by epoch), the one to send with at `unix_s`: the newest due
  // epoch not revoked, or, if none is due yet, the oldest not revoked; the
  // oldest of all if every one is revoked (a host refuses that
  // configuration: security_problem).
  template <class Key>
  const std::pair<const std::uint32_t, Key>& sending(const std::map<std::uint32_t, Key>& keys,
                                                     std::uint64_t unix_s) const {
    const std::pair<const std::uint32_t, Key>* oldest = nullptr;
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) {
      if (revoked_epochs.contains(it->first)) continue;
      const auto from = send_from.find(it->first);
      if (from == send_from.end() || from->second <= unix_s) return *it;
      oldest = &*it;
    }
    return oldest != nullptr ? *oldest : *keys.begin();
  }

  bool revoked(std::uint32_t epoch) const { return revoked_epochs.contains(epoch); }
  bool revoked_publisher(NodeId node) const { return revoked_publishers.contains(node); }
  bool empty() const { return network.empty() && groups.empty(); }
  const GroupKeys* group(const std::string& name) const {
    const auto it = groups.find(name);
    return it == groups.end() ? nullptr : &it->second;
  }
};

}  // namespace dissem::engine

namespace dissem::engine {

// Why `config` cannot be used (every epoch of some key revoked, so there is
// nothing to send, sign, seal or verify with); empty when it can.
std::string security_problem(const SecurityConfig& config);
// Why a running node cannot change from `running` to `next` (turning the
// network key or keys altogether on or off changes datagram sizes: a
// restart), or security_problem(next); empty when it can.
std::string security_change_problem(const SecurityConfig& running, const SecurityConfig& next);

}  // namespace dissem::engine
