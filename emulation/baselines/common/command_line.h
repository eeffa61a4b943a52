// The command line and main() of the baseline programs (dissem-norm,
// dissem-pgm, dissem-tcp): `PROGRAM sender|receiver [options]`, parsed with
// CLI11; help exits 0, a bad argument exits 2 with a message on stderr that
// names the option.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>

#include "stop_signal.h"

namespace CLI {
class App;
}  // namespace CLI

namespace dissem::baseline {

enum class Role { Sender, Receiver };

// A bad argument found after CLI11 has parsed; the text starts with the option.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What the command line asks for: options to run with, or (help shown, or a
// usage error reported on stderr naming the option) the exit code to return
// at once: 0 for help, 2 for errors.
template <typename Options>
struct CommandLine {
  std::optional<Options> options;
  int exit_code = 0;
};

// Parses argv with `app` (its subcommands and options set up), then calls
// `finish`, which checks what CLI11 cannot (throwing UsageError) and keeps
// the options. Returns nullopt to run, or the exit code: 0 after printing the
// help asked for, 2 after a parse or usage error, reported on stderr after
// "PROGRAM: ".
std::optional<int> parse_arguments(CLI::App& app, int argc, const char* const* argv, const char* program,
                                   const std::function<void()>& finish);

// The same, for `finish` returning the options to run with.
template <typename Options>
CommandLine<Options> parse_command_line(CLI::App& app, int argc, const char* const* argv, const char* program,
                                        const std::function<Options()>& finish) {
  CommandLine<Options> out;
  if (auto code = parse_arguments(app, argc, argv, program, [&] { out.options = finish(); })) {
    out.exit_code = *code;
  }
  return out;
}

// The body of main(): the exit code at once if the command line said so;
// otherwise installs the SIGINT/SIGTERM handlers and runs the role asked for,
// returning its exit code.
template <typename Options>
int run_role(const CommandLine<Options>& command, int (*run_sender)(const Options&),
             int (*run_receiver)(const Options&)) {
  if (!command.options) return command.exit_code;
  install_stop_handlers();
  const Options& options = *command.options;
  return options.role == Role::Sender ? run_sender(options) : run_receiver(options);
}

}  // namespace dissem::baseline
