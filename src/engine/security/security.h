// Authenticated groups (engine/security/security_config.h), the node's part that owns
// their state: datagrams sealed on the way out and opened on the way in
// (network key, replay guard, who sealed the datagram being handled);
// messages of keyed groups signed at publication and their signatures
// checked before anything of them is cached, once per manifest, with the
// chain of manifests known authentic; sealed payloads encrypted at
// publication and opened at delivery. Every refusal is counted in the
// context's stats as an integrity event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/types.h"
#include "engine/security/datagram_auth.h"
#include "engine/security/manifest_chain.h"
#include "engine/node_context.h"

namespace dissem::engine {

class Security {
 public:
  explicit Security(NodeContext& ctx);

  // --- datagrams ---
  // Appends the network-key trailer (nothing in an open network).
  void seal_outgoing(std::vector<std::uint8_t>& datagram, Micros now);
  // The frame of a datagram whose trailer verifies and is not a replay (the
  // whole datagram in an open network); nothing, counted, otherwise. Its
  // sealer becomes the one sealed_by() checks against.
  std::optional<std::span<const std::uint8_t>> open_incoming(std::span<const std::uint8_t> datagram);
  // Who sealed the datagram being handled (0: open network); a batch sets
  // it back for each of its items in turn.
  NodeId sealer() const { return sealer_; }
  void set_sealer(NodeId sealer) { sealer_ = sealer; }
  // A control datagram naming `claimed` as its sender was sealed by it.
  bool sealed_by(NodeId claimed);
  // Streams of this publisher are neither learnt nor asked for.
  bool revoked_publisher(NodeId publisher) const { return ctx_.config.security.revoked_publisher(publisher); }

  // --- manifests of keyed groups ---
  // Data of a keyed group carries a valid signature of its manifest (checked
  // once per message); always true in open groups. False, counted, for a new
  // message of a revoked publisher or under a revoked epoch.
  bool authentic(const MessageMeta& meta);
  // Before a batch is handled: checks the signatures of the manifests its
  // data would be taken with, newest message of each stream first, so the
  // chain vouches for the rest of the burst.
  void authenticate_ahead(std::vector<MessageMeta> metas);
  // A datagram, or a batch, has been handled: what it remembered of
  // signatures checked and failed is forgotten.
  void end_datagram() { batch_forged_.clear(); }
  void end_batch();

  // --- publication and delivery ---
  // Publication in a keyed group: seals the payload (if the group has a seal
  // key) and signs the manifest; throws PublishError without a signing key.
  void sign_and_seal(MessageMeta& meta, std::vector<std::uint8_t>& payload, Micros now);
  // What an application is given of a stored message: opened if its group is
  // sealed (nothing, counted, if it does not open).
  std::optional<std::vector<std::uint8_t>> readable(const MessageId& id, std::vector<std::uint8_t> stored);

 private:
  static constexpr std::size_t kChainMemory = 8192;
  static constexpr std::size_t kMaxBatchForged = 64;

  // The manifest is authentic: vouched for by the chain, or its signature
  // verifies under `key`. Failures are not counted here (the caller does),
  // only remembered for the batch; `ahead`: the check before a batch.
  bool check_signature(const MessageMeta& meta, const VerifyKey& key, bool ahead);
  // Whether the manifest is one this node admitted already (checked then).
  bool admitted(const MessageMeta& meta) const;
  // From a revoked publisher, or signed under a revoked epoch (`keys`: its
  // group's, nullptr for an open group).
  bool revoked(const MessageMeta& meta, const GroupKeys* keys) const;

  NodeContext& ctx_;
  ReplayGuard replay_;
  std::uint64_t auth_counter_ = 0;  // the counter of our last sealed datagram
  NodeId sealer_ = 0;
  // Manifests known authentic (engine/security/manifest_chain.h), and per keyed
  // group our last signed message (seq, link): the next one links to it.
  ManifestChain chain_{kChainMemory};
  std::unordered_map<std::string, std::pair<std::uint64_t, ChainLink>> publish_links_;
  // Manifests whose signature failed during the batch being handled: each
  // is checked (and counted) once however many of its datagrams the batch has.
  std::vector<std::pair<MessageId, ChainLink>> batch_forged_;
  std::vector<MessageId> batch_checked_;  // ... and those whose signature was checked ahead of it
};

}  // namespace dissem::engine
