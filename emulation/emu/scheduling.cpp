#include "scheduling.h"

#include <sched.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace dissem::emu {

namespace {
constexpr int kFallbackNice = -10;
}

std::string apply_scheduling(int rt_priority, std::string& warning) {
  warning.clear();
  if (rt_priority <= 0) return "normal";
  sched_param param{};
  param.sched_priority = rt_priority;
  if (::sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &param) == 0)
    return fmt::format("fifo:{}", rt_priority);
  const int rt_errno = errno;
  if (::setpriority(PRIO_PROCESS, 0, kFallbackNice) == 0) {
    warning = fmt::format("SCHED_FIFO {} refused ({}); running at nice {}", rt_priority, std::strerror(rt_errno),
                          kFallbackNice);
    return fmt::format("nice:{}", kFallbackNice);
  }
  warning = fmt::format("SCHED_FIFO {} refused ({}) and so was nice {} ({}); link timing may suffer under load",
                        rt_priority, std::strerror(rt_errno), kFallbackNice, std::strerror(errno));
  return "normal";
}

}  // namespace dissem::emu
