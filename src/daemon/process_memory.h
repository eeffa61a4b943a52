// The daemon process's resident memory, read from /proc/self/status (Linux):
// VmRSS now and VmHWM, its high-water mark. Zeros where the file is missing.
#pragma once

#include <cstdint>

namespace dissem::daemon {

struct ProcessMemory {
  std::uint64_t rss_bytes = 0;
  std::uint64_t peak_rss_bytes = 0;
};

ProcessMemory process_memory();

}  // namespace dissem::daemon
