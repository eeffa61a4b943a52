// `dissem keygen`: writes the key files dissemd's [security] keys name
// (daemon/key_files.h). Needs no daemon.
//
//   dissem keygen network --epoch N --out FILE [--append]
//   dissem keygen group NAME --epoch N --out PREFIX [--seal] [--append]
//
// Without --append nothing is overwritten: every file written must be new.
// With --append, epoch N is added to existing files (a rotation: nodes accept
// every epoch they hold and use the newest). Prints the paths and epochs it
// wrote, never key bytes.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace dissem::cli {

struct KeygenOptions {
  std::string group;  // keygen group
  std::uint32_t epoch = 0;
  std::string out;    // the file (network) or the files' prefix (group)
  bool seal = false;  // keygen group: also PREFIX.seal
  bool append = false;
};

// Adds `keygen` with its `network` and `group` subcommands to `app`.
CLI::App* add_keygen_command(CLI::App& app, KeygenOptions& options);

// Runs the subcommand of `keygen` that was given. Throws Failure
// (kExitUsage) for files that exist without --append, or are missing, of
// another kind or already hold the epoch with it; std::runtime_error when a
// file cannot be written.
void run_keygen(const CLI::App& keygen, const KeygenOptions& options);

}  // namespace dissem::cli
