// Authenticated groups' state (node_security.cpp, node_receive_batch.cpp):
// the network key's replay guard and our trailer counter, who sealed the
// datagram being handled, manifests known authentic, our signing chain per
// keyed group, and what the batch being handled has already checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/types.h"
#include "engine/datagram_auth.h"
#include "engine/manifest_chain.h"

namespace dissem::engine {

struct SecurityState {
  SecurityState(std::size_t max_peers, std::uint64_t replay_window) : replay(max_peers, replay_window) {}

  static constexpr std::size_t kChainMemory = 8192;
  static constexpr std::size_t kMaxBatchForged = 64;

  ReplayGuard replay;
  std::uint64_t auth_counter = 0;  // the counter of our last sealed datagram
  NodeId sealer = 0;               // who sealed the datagram being handled (0: open network)
  // Manifests known authentic (engine/manifest_chain.h), and per keyed
  // group our last signed message (seq, link): the next one links to it.
  ManifestChain chain{kChainMemory};
  std::unordered_map<std::string, std::pair<std::uint64_t, ChainLink>> publish_links;
  // Manifests whose signature failed during the batch being handled: each
  // is checked (and counted) once however many of its datagrams the batch has.
  std::vector<std::pair<MessageId, ChainLink>> batch_forged;
  std::vector<MessageId> batch_checked;  // ... and those whose signature was checked ahead of it
};

}  // namespace dissem::engine
