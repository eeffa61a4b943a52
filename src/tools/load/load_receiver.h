// dissem-load receive: subscribes and records every stamped message dissemd delivers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dissem::load {

struct ReceiveArgs {
  std::string socket, group;
  std::size_t expect = 0;           // without a workload: messages to wait for
  std::vector<std::string> streams;  // the publisher's workload (--stream, --plan)
  std::string plan;
  double time_limit_s = 600;
  double linger_s = -1;  // with a workload: stop this long after its last message was produced (< 0: never)
  bool unreliable = false;
  bool silent = false;  // a silent subscription (EMCON for the group)
  std::uint32_t history = 0;
};

// Prints one JSON object on stdout; returns 0 when everything expected
// arrived, 4 otherwise. Throws std::invalid_argument for bad arguments.
int run_receive(const ReceiveArgs& args);

}  // namespace dissem::load
