#include "engine/repair/responder_rank.h"

#include "core/random.h"

namespace dissem::engine {

std::uint64_t responder_key(const MessageId& message, NodeId node) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the group's bytes
  for (const unsigned char c : message.group) h = (h ^ c) * 0x100000001b3ULL;
  std::uint64_t state = h ^ (std::uint64_t{message.publisher} << 32) ^ message.seq;
  std::uint64_t key = splitmix64(state);
  state = key ^ node;
  return splitmix64(state);
}

std::size_t responder_rank(const MessageId& message, NodeId self, NodeId requester,
                           const std::map<NodeId, Peer>& peers) {
  const std::uint64_t mine = responder_key(message, self);
  std::size_t rank = 0;
  for (const auto& [id, peer] : peers) {
    if (id == self || id == requester || !peer.established()) continue;
    const std::uint64_t theirs = responder_key(message, id);
    if (theirs < mine || (theirs == mine && id < self)) ++rank;
  }
  return rank;
}

}  // namespace dissem::engine
