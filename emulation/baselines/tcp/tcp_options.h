// Command line of dissem-tcp: `dissem-tcp sender|receiver [options]`.
#pragma once

#include <optional>
#include <string>

#include "common/command_line.h"
#include "socket_ops.h"
#include "tools/load/workload.h"

namespace dissem::tcp_baseline {

using baseline::Role;

struct SenderOptions {
  Endpoint connect;             // the receiver
  double connect_timeout_s = 10;
  int send_buffer = 0;          // SO_SNDBUF; 0: the kernel's autotuning
};

struct ReceiverOptions {
  Endpoint listen;
  std::size_t expect = 0;       // without a workload: messages to wait for
  double linger_s = -1;         // with a workload: stop this long after its last message was produced
};

struct Options {
  Role role = Role::Sender;
  load::Workload workload;      // --plan and --stream (src/tools/load/workload.h)
  double time_limit_s = 60;     // counted from process start
  SenderOptions sender;
  ReceiverOptions receiver;
};

// Options to run with, or the exit code to return at once (common/command_line.h).
using CommandLine = baseline::CommandLine<Options>;

CommandLine parse_command_line(int argc, const char* const* argv);

}  // namespace dissem::tcp_baseline
