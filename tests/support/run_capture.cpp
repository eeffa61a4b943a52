#include "support/run_capture.h"

#include <sys/wait.h>

#include <cstdio>

namespace dissem::testing {

std::string run_capture(const std::string& command, int* exit_code) {
  std::string out;
  std::string shell = command;
  shell += " 2>&1";
  FILE* p = ::popen(shell.c_str(), "r");
  char buf[512];
  while (p != nullptr && std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int status = p != nullptr ? ::pclose(p) : -1;
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace dissem::testing
