// Who answers a request first. Every node that may answer a request for a
// message ranks the candidate servers (itself and the peers it hears, less
// the requester) by a hash of the message and each node's id. Nodes that
// hear the same peers compute the same order, so each message has one first
// server, the others wait one turn each and stay quiet once they hear it
// answered (the NTM). Different messages have different first servers, so
// with a radio per node the answers to a many-message request (a late
// joiner's history) go out in parallel, each about once; a random delay
// alone leaves servers that fire within one frame time sending the same
// message together. The hash is written out (FNV-1a, splitmix64) so that
// every build and platform ranks alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "engine/peers.h"
#include "core/types.h"

namespace dissem::engine {

// The rank key of `node` for `message`: lower answers earlier.
std::uint64_t responder_key(const MessageId& message, NodeId node);

// `self`'s rank (0 = first) among itself and the established `peers`, the
// requester left out (ids heard once could be invented, and would only
// delay the answer).
std::size_t responder_rank(const MessageId& message, NodeId self, NodeId requester,
                           const std::map<NodeId, Peer>& peers);

}  // namespace dissem::engine
