// The receiver role: receives and checks APDUs until --expect messages are
// complete. Returns the process exit code.
#pragma once

#include "pgm_options.h"

namespace dissem::pgm_baseline {

int run_receiver(const Options& options);

}  // namespace dissem::pgm_baseline
