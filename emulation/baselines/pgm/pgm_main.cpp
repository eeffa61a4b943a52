// dissem-pgm: the OpenPGM baseline, run on the same emulated links as
// dissemd and dissem-norm so that all are measured alike. One process is a
// sender or a receiver; each prints one JSON result object as the last line
// of stdout (progress and diagnostics go to stderr).
//
//   dissem-pgm receiver --node-id 2 --interface lo --loopback --expect 1
//   dissem-pgm sender --node-id 1 --interface lo --loopback --rate 20000000
//                     --messages 1x819200 --linger 5
//
// Exit codes: 0 completed (receiver: every expected message; sender: every
// message handed to PGM), 1 not completed (time limit, PGM error, signal),
// 2 bad arguments.
#include "pgm_options.h"
#include "pgm_receiver.h"
#include "pgm_sender.h"

int main(int argc, char** argv) {
  using namespace dissem::pgm_baseline;
  return dissem::baseline::run_role(parse_command_line(argc, argv), run_sender, run_receiver);
}
