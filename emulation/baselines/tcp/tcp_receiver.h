// dissem-tcp receiver: accepts one connection and records every message
// (latency per stream, src/tools/load/reception_log.h), until everything
// planned arrived, the workload is over (--linger), the sender closes, the
// time limit or a signal.
#pragma once

#include "tcp_options.h"

namespace dissem::tcp_baseline {

// Prints one JSON result line; returns 0 when everything expected arrived,
// 4 when it stopped before (time limit, linger, sender closed, signal), 1 on
// failure.
int run_receiver(const Options& options);

}  // namespace dissem::tcp_baseline
