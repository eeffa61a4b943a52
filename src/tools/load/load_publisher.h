// dissem-load publish: hands an experiment's messages to dissemd on schedule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dissem::load {

struct PublishArgs {
  std::string socket, group;
  // Either a list of sizes (--messages, one every --interval-s, stamped when
  // handed over) or a workload (--stream and --plan, stamped when produced).
  std::string messages;
  double interval_s = 0;
  std::uint32_t priority = 0;
  std::vector<std::string> streams;
  std::string plan;
  std::string tag_scheme = "stream";
  bool no_replace = false;
  // > 0: a long-running offered load. Nothing is published later than this
  // many seconds after the start (the rest of the plan is not offered), and a
  // publish waiting for room in the daemon's send queue waits at most until
  // then: a load offered above capacity ends on time instead of when the
  // backlog drains.
  double offer_for_s = 0;
};

// Prints one JSON object on stdout; returns the exit code. Throws
// std::invalid_argument for bad arguments, other exceptions for failures.
int run_publish(const PublishArgs& args);

}  // namespace dissem::load
