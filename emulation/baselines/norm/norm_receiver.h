// The receiving side: join the session with NORM_SYNC_ALL, record every
// object's first packet and completion, check its contents, print the JSON
// result once --expect objects are complete, then linger so the sender's
// acknowledgement requests are still answered.
#pragma once

#include "norm_options.h"

namespace dissem::norm_baseline {

// Returns the process exit code: 0 all expected objects complete, 1 otherwise.
int run_receiver(const Options& options);

}  // namespace dissem::norm_baseline
