#include "daemon/process_memory.h"

#include <fstream>
#include <sstream>
#include <string>

namespace dissem::daemon {

ProcessMemory process_memory() {
  ProcessMemory m;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t kib = 0;
    if (!(fields >> name >> kib)) continue;
    if (name == "VmRSS:") m.rss_bytes = kib * 1024;
    if (name == "VmHWM:") m.peak_rss_bytes = kib * 1024;
  }
  return m;
}

}  // namespace dissem::daemon
