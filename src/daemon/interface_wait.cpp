#include "daemon/interface_wait.h"

#include <stdexcept>
#include <thread>

#include "daemon/log.h"

namespace dissem::daemon {

void wait_for_interfaces(const NetSection& net, const ReadinessProbe& probe, std::chrono::milliseconds poll) {
  using Clock = std::chrono::steady_clock;
  const auto wait = std::chrono::seconds(net.interface_wait_s);
  const auto deadline = Clock::now() + wait;
  // Bounded in count as well as in time (a clock that stalls cannot hold start-up).
  const auto most_checks = 1 + wait / std::max(poll, std::chrono::milliseconds(1));
  for (const auto& name : net.interfaces) {
    const bool ipv6 = net.link(name).ipv6();
    std::string said;  // the reason last logged: a new one is logged too (absent, then tentative)
    for (std::int64_t check = 0;; ++check) {
      const std::string why = probe(name, ipv6);
      if (why.empty()) break;
      if (net.interface_wait_s == 0) throw std::runtime_error(why);
      if (Clock::now() >= deadline || check >= most_checks)
        throw std::runtime_error(fmt::format("interface '{}' is still not ready after {} s (net.interface_wait_s): {}",
                                             name, net.interface_wait_s, why));
      if (why != said) {
        log(LogLevel::Warn, "{} for interface '{}': {}",
            said.empty() ? fmt::format("waiting up to {} s", net.interface_wait_s) : std::string("still waiting"),
            name, why);
        said = why;
      }
      std::this_thread::sleep_for(poll);
    }
    if (!said.empty()) log(LogLevel::Info, "interface '{}' is ready", name);
  }
}

}  // namespace dissem::daemon
