// dissem-tcp: a plain TCP baseline, run on the same emulated links as
// dissemd and with the same workload as dissem-load (src/tools/load), so
// that both are measured alike: one reliable, ordered connection carrying
// length-prefixed stamped messages, as the paper's SCTP and SCPS-TP did.
// Each process prints one JSON result object as the last line of stdout
// (diagnostics go to stderr).
//
//   dissem-tcp receiver --listen 5001 --plan exp1.plan --linger 4 --time-limit 80
//   dissem-tcp sender --connect 10.77.0.2:5001 --plan exp1.plan --time-limit 90
//
// Exit codes: 0 completed (receiver: everything arrived; sender: the
// receiver ended the connection), 4 stopped before (time limit, linger,
// signal), 1 failure (no connection, socket error, bad framing), 2 bad
// arguments.
#include "tcp_options.h"
#include "tcp_receiver.h"
#include "tcp_sender.h"

int main(int argc, char** argv) {
  using namespace dissem::tcp_baseline;
  return dissem::baseline::run_role(parse_command_line(argc, argv), run_sender, run_receiver);
}
