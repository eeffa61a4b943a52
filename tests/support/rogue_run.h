// dissem-rogue beside loopback daemons, run in a thread for the duration of
// a test: `args` name its attacks, rate and duration. Header-only: the
// binary's path (DISSEM_ROGUE_PATH) is defined for the test executable.
#pragma once

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "support/run_capture.h"

namespace dissem::testing {

class RogueRun {
 public:
  RogueRun(int port, const std::string& args)
      : thread_([this, port, args] {
          output_ = run_capture(std::string(DISSEM_ROGUE_PATH) + " --interface lo --port " + std::to_string(port) +
                                    " " + args,
                                &exit_code_);
        }) {}
  ~RogueRun() { join(); }
  RogueRun(const RogueRun&) = delete;
  RogueRun& operator=(const RogueRun&) = delete;

  // Waits for the rogue to finish.
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  int exit_code() const { return exit_code_; }
  const std::string& output() const { return output_; }  // its JSON summary

 private:
  std::string output_;
  int exit_code_ = -1;
  std::thread thread_;
};

// Distinct payloads for tests: the same (n, seed) always gives the same bytes.
inline std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) {
    seed = seed * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(seed >> 16);
  }
  return v;
}

}  // namespace dissem::testing
