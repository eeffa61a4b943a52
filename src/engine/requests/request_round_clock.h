// When the next request round runs (node_requests.cpp): every
// timing.request_round, but never before the last MFR's share of the
// control budget has passed (link_timers.h), so requests cannot crowd a
// slow link.
#pragma once

#include "core/types.h"

namespace dissem::engine {

struct RequestRoundClock {
  Micros next = 0;
  Micros spacing_until = 0;  // the last MFR's share of the control budget
};

}  // namespace dissem::engine
