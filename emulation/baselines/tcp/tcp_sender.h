// dissem-tcp sender: connects to the receiver and writes the workload's
// length-prefixed stamped messages on schedule over one TCP connection
// (TCP_NODELAY), until the receiver closes, the time limit or a signal.
#pragma once

#include "tcp_options.h"

namespace dissem::tcp_baseline {

// Prints one JSON result line; returns 0 when the receiver ended the
// connection, 4 at the time limit or on a signal, 1 on failure.
int run_sender(const Options& options);

}  // namespace dissem::tcp_baseline
