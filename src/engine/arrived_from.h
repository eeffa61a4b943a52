// Where a fragment held for the first time came from: what the forwarding
// controller, the coders and the ended-claims check judge it by.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace dissem::engine {

struct ArrivedFrom {
  std::uint32_t hops = 0;
  NodeId transmitter = 0;  // 0: unknown (a repair)
  bool repair = false;
  bool decoded = false;    // recovered from coded symbols, not received
  std::uint32_t block_symbols = 0;  // the fragment's block_symbols field
  // The publisher's own first pass of it (what contradicts another node's claim).
  bool first_pass() const { return hops == 0 && !repair && !decoded; }
};

}  // namespace dissem::engine
