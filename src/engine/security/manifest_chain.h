// Amortised source authentication for keyed groups: the manifest chain.
//
// Checking an Ed25519 signature costs about 55 us, several times the rest of
// a small message's receive path. So each signed manifest also names its
// predecessor in the stream: the link of message seq (wire field `chain` of
// message seq + 1) is the first 16 bytes of BLAKE2b over message seq's
// manifest bytes and its signature. A node that has verified one message's
// signature therefore knows, without another signature check, the exact
// manifest (and signature) of the message before it, and by induction of
// every earlier one whose manifest it meets.
//
// A receiver gets the most out of this by checking the newest message of a
// burst first (Node::on_datagrams): the rest of the burst, and repairs of
// older messages arriving later, are vouched for by the chain. A message
// whose successor was never verified is checked on its own signature, as
// before, so loss or reordering costs CPU, never correctness.
//
// The link covers the signature too: a node caches and serves the signature
// it was given, and a vouched-for manifest with a spoiled signature would
// otherwise reach the next node unverifiable.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>

#include "core/types.h"

namespace dissem::engine {

inline constexpr std::size_t kChainLinkBytes = 16;
using ChainLink = std::array<std::uint8_t, kChainLinkBytes>;

// The link a successor of `meta` names: BLAKE2b-128(manifest || signature).
ChainLink manifest_link(const MessageMeta& meta);

// `link` as the wire's bytes field.
std::string link_bytes(const ChainLink& link);

// What a node knows to be authentic: for a bounded number of message ids,
// the link of their authentic manifest (learnt by verifying its signature,
// or from an authentic successor). Oldest entries are forgotten first.
class ManifestChain {
 public:
  explicit ManifestChain(std::size_t capacity) : capacity_(capacity) {}

  // Whether a manifest of `id` whose link is `link` is known authentic.
  bool vouched(const MessageId& id, const ChainLink& link) const;
  // `meta`, whose link is `link`, is authentic: so is the predecessor its
  // manifest names, if any.
  void learn(const MessageMeta& meta, const ChainLink& link);

  std::size_t size() const { return links_.size(); }

 private:
  void put(const MessageId& id, const ChainLink& link);

  std::size_t capacity_;
  std::unordered_map<MessageId, ChainLink, MessageIdHash> links_;
  std::deque<MessageId> order_;  // insertion order, for forgetting
};

}  // namespace dissem::engine
