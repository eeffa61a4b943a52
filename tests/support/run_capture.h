// Runs a shell command, returning what it printed (stdout and stderr) and
// its exit code: for tests of command-line behaviour (start-up errors).
#pragma once

#include <string>

namespace dissem::testing {

std::string run_capture(const std::string& command, int* exit_code);

}  // namespace dissem::testing
