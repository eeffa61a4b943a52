// Running a helper program (ip) and capturing what it says. The child gets
// default signal handling and an empty signal mask (the emulator blocks its
// termination signals), and never writes to the emulator's stdout, which
// carries the ready line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dissem::emu {

struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal or timed out
  std::string output;  // stdout and stderr together
};

// argv[0] is searched in PATH. `input` is written to the child's stdin. The
// child is killed after `timeout_ms`.
CommandResult run_command(const std::vector<std::string>& argv, std::string_view input = {},
                          int timeout_ms = 30'000);

// As run_command, but a non-zero exit throws std::runtime_error naming the
// command and quoting its output.
std::string run_checked(const std::vector<std::string>& argv, std::string_view input = {});

std::string describe_command(const std::vector<std::string>& argv);

}  // namespace dissem::emu
