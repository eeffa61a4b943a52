// EMANE Event Log (EEL) files: the scenario language shared with EMANE.
//
//   <time_s> nem:<X> commeffect nem:<Y>,<latency_s>,<jitter_s>,<loss_pct>,<dup_pct>,<unicast_bps>,<broadcast_bps> [nem:<Z>,...]...
//
// As in EMANE, the event is delivered to NEM X, the RECEIVER, and sets the
// effects X applies to frames it receives FROM NEM Y: the entry describes the
// ordered link Y -> X. Other event types (location, pathloss, ...) are counted
// and ignored. '#' starts a comment; blank lines are allowed.
#pragma once

#include <cstddef>
#include <istream>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "link_effects.h"

namespace dissem::emu {

struct CommEffectEvent {
  TimeNs at = 0;  // run time: 0 is the ready line
  NodeId sender = 0;    // Y: whose frames are affected
  NodeId receiver = 0;  // X: the NEM the event is addressed to
  LinkEffects effects;
  std::size_t line = 0;  // for messages
};

struct EelScenario {
  std::vector<CommEffectEvent> events;        // stably sorted by time
  std::map<std::string, std::size_t> ignored;  // other event types -> how many
};

// Bad input: the message names source:line and the field.
class EelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `nodes` bounds the nem ids (1..nodes). `source` names the input in messages.
EelScenario parse_eel(std::istream& in, std::string_view source, std::size_t nodes);
EelScenario load_eel_file(const std::string& path, std::size_t nodes);

}  // namespace dissem::emu
