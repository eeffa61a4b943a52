// A literal EEL topology (kind = "eel"): EMANE Event Log commeffect lines,
//
//   <time_s> nem:<X> commeffect nem:<Y>,<latency_s>,<jitter_s>,<loss_pct>,<dup_pct>,<unicast_bps>,<broadcast_bps> [...]
//
// read into directed link events. Which of X and Y sends is the file's
// convention: "sender-first" (X sends: how dissem-emu and EMANE's
// eelloadercommeffect read a file) or "receiver-first" (X receives). Blank
// lines and '#' comments are skipped; other event types are refused, since
// no engine would act on them. Errors (std::invalid_argument) name the line.
#pragma once

#include <string_view>
#include <vector>

#include "scenario/link_event.h"

namespace dissem::scenario {

std::vector<LinkEvent> read_eel(std::string_view text, std::string_view convention);

}  // namespace dissem::scenario
