// Shared by the baseline programs (NORM, PGM, TCP). SIGINT/SIGTERM end a run
// early but still print its (partial) result, so a harness that stops a run
// still learns what happened.
#pragma once

namespace dissem::baseline {

void install_stop_handlers();
bool stop_requested();

}  // namespace dissem::baseline
