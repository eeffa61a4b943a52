// Shared by the `dissem` subcommands: exit codes, connecting with a useful
// diagnosis, and how ids are printed.
#pragma once

#include <stdexcept>
#include <string>

#include "client/client.h"
#include "core/types.h"

namespace dissem::cli {

// The process exit codes; documented in `dissem --help`.
enum ExitCode : int {
  kExitOk = 0,
  kExitRefused = 1,    // dissemd refused the request
  kExitUsage = 2,      // bad command line or unreadable input
  kExitNoDaemon = 3,   // cannot connect, or the connection was lost
  kExitTimedOut = 4,   // subscribe: --timeout-s passed before --count deliveries
  kExitLocalIo = 5,    // an output file could not be written
};

// Ends the command with `code` after main() prints the message.
class Failure : public std::runtime_error {
 public:
  Failure(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// Connects or throws Failure(kExitNoDaemon) with a message that names the
// path and says whether a daemon seems to be running there.
client::Client connect_or_explain(const std::string& socket_path);

// "group/0000abcd/17": the form `publish` prints and `subscribe` logs.
std::string format_id(const MessageId& id);
std::string node_hex(NodeId node);

// Writes `text` to standard output and flushes it (watch modes are read live).
void print(const std::string& text);

// Is stderr a terminal (progress lines are on by default only then)?
bool stderr_is_tty();

}  // namespace dissem::cli
