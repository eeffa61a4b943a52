// EMANE Event Log (EEL) files: the scenario language shared with EMANE.
//
//   <time_s> nem:<X> commeffect nem:<Y>,<latency_s>,<jitter_s>,<loss_pct>,<dup_pct>,<unicast_bps>,<broadcast_bps> [nem:<Z>,...]...
//
// As EMANE's eelloadercommeffect reads it, the line describes the ordered
// link X -> Y: frames SENT BY X as received at Y (EMANE builds the effect with
// X's NEM id and delivers the event to NEM Y, whose commeffect shim looks
// effects up by each frame's source). So one file drives dissem-emu and an
// EMANE testbed alike. Other event types (location, pathloss, ...) are counted
// and ignored. '#' starts a comment; blank lines are allowed. The text is
// read by the one EEL reader (src/scenario/eel_reader.h), which scenarios'
// literal EEL and dissem-sim read-eel use too.
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
  NodeId sender = 0;    // X: whose frames are affected
  NodeId receiver = 0;  // Y: where they are received (EMANE's event target)
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
