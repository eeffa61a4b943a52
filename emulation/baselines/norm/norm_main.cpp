// dissem-norm: the NRL NORM baseline, run on the same emulated links as
// dissemd so that both are measured alike. One process is a sender or a
// receiver; each prints one JSON result object as the last line of stdout
// (progress and diagnostics go to stderr).
//
//   dissem-norm sender --node-id 1 --interface lo --loopback --grtt 0.01
//                      --rate 19000000 --messages 3x200000 --ackers 2,3
//   dissem-norm receiver --node-id 2 --interface lo --loopback --expect 3
//
// Exit codes: 0 completed, 1 not completed (time limit, failed
// acknowledgement, NORM error, signal), 2 bad arguments.
#include "norm_options.h"
#include "norm_receiver.h"
#include "norm_sender.h"

int main(int argc, char** argv) {
  using namespace dissem::norm_baseline;
  return dissem::baseline::run_role(parse_command_line(argc, argv), run_sender, run_receiver);
}
