// CPU time a process has used so far (utime + stime from /proc/<pid>/stat),
// in seconds. For benchmarks that report CPU per MB of child daemons.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

namespace dissem::testing {

inline double process_cpu_seconds(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(f, line);
  const auto close = line.rfind(')');
  if (close == std::string::npos) return 0.0;
  std::vector<std::string> fields;
  std::string field;
  for (char ch : line.substr(close + 2)) {
    if (ch == ' ') {
      fields.push_back(field);
      field.clear();
    } else {
      field += ch;
    }
  }
  // After "pid (comm) ": state is field 0, utime field 11, stime field 12.
  if (fields.size() < 13) return 0.0;
  return (std::stod(fields[11]) + std::stod(fields[12])) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace dissem::testing
