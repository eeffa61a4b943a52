// The sender role: sends every message as a run of APDUs through one PGM
// socket, then keeps serving repairs. Returns the process exit code.
#pragma once

#include "pgm_options.h"

namespace dissem::pgm_baseline {

int run_sender(const Options& options);

}  // namespace dissem::pgm_baseline
