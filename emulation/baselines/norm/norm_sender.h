// The sending side: enqueue every message as NORM_OBJECT_DATA, wait until the
// listed ackers have acknowledged all of it (or, with no ackers, until NORM's
// flush ends), linger for late repairs, print the JSON result.
#pragma once

#include "norm_options.h"

namespace dissem::norm_baseline {

// Returns the process exit code: 0 completed, 1 not completed (time limit,
// acknowledgement failure, signal or NORM error).
int run_sender(const Options& options);

}  // namespace dissem::norm_baseline
