// What one ordered link (sender -> receiver) does to the frames on it: the
// six numbers of an EMANE commeffect entry.
#pragma once

#include <cstddef>
#include <cstdint>

#include "emu_time.h"

namespace dissem::emu {

// Nodes are numbered 1..N, as EMANE NEM ids are.
using NodeId = std::size_t;

struct LinkEffects {
  TimeNs latency = 0;
  TimeNs jitter = 0;                // extra delay, uniform in [0, jitter]
  double loss_pct = 0;              // independent per frame and per receiver
  double duplicate_pct = 0;         // chance of one extra copy
  std::uint64_t unicast_bps = 0;    // 0 = unlimited
  std::uint64_t broadcast_bps = 0;  // broadcast and multicast frames; 0 = unlimited

  // A link that passes nothing: how an asymmetric or partitioned link is said.
  static LinkEffects disconnected() {
    LinkEffects e;
    e.loss_pct = 100;
    return e;
  }

  bool passes_nothing() const { return loss_pct >= 100; }

  bool operator==(const LinkEffects&) const = default;
};

}  // namespace dissem::emu
