#include "tools/load/load_receiver.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "client/client.h"
#include "core/json.h"
#include "ipc/stats_json.h"
#include "tools/dissem_commands.h"
#include "tools/load/reception_log.h"
#include "tools/load/stamped_payload.h"
#include "tools/load/workload.h"

namespace dissem::load {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Why the receiver stopped: everything arrived, the workload was over (its
// last message produced --linger-s ago), or the time limit.
enum class Stop { Running, Complete, Linger, TimeLimit };

const char* stop_name(Stop s) {
  switch (s) {
    case Stop::Complete: return "complete";
    case Stop::Linger: return "linger";
    case Stop::TimeLimit: return "time_limit";
    case Stop::Running: break;
  }
  return "running";
}

Stop why_stop(const ReceptionLog& log, const ReceiveArgs& a, Clock::time_point deadline) {
  if (log.complete()) return Stop::Complete;
  if (Clock::now() >= deadline) return Stop::TimeLimit;
  const auto end = log.plan_end_unix_us();
  if (a.linger_s >= 0 && end && unix_us() >= *end + static_cast<std::uint64_t>(a.linger_s * 1e6)) return Stop::Linger;
  return Stop::Running;
}

Json daemon_stats(client::Client& c) {
  try {
    return ipc::stats_json(c.stats());
  } catch (const std::exception&) {
    return nullptr;  // the result matters more than the daemon's counters
  }
}

}  // namespace

int run_receive(const ReceiveArgs& a) {
  Workload plan = workload_from_options(a.plan, a.streams);
  if (plan.streams.empty() && a.expect == 0) throw std::invalid_argument("give --expect or a workload (--plan, --stream)");
  ReceptionLog log(std::move(plan), a.expect);
  client::Client c(a.socket);
  engine::SubscriptionOptions options;
  options.reliable = !a.unreliable;
  options.history = a.history;
  options.silent = a.silent;
  c.subscribe(a.group, options);
  const auto t0 = Clock::now();
  const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(a.time_limit_s));
  Stop stop = Stop::Running;
  while ((stop = why_stop(log, a, deadline)) == Stop::Running) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    // Short waits: the linger deadline is checked between deliveries.
    auto d = c.next_delivery(std::clamp<std::chrono::milliseconds>(left, 0ms, 100ms));
    if (!d) continue;
    log.add(fmt::format("{:08x}", d->meta.id.publisher), d->payload, unix_us(),
            std::chrono::duration<double>(Clock::now() - t0).count());
  }
  Json result;
  result["system"] = "dissem";
  result["role"] = "receiver";
  result.update(log.json_members());
  result["timed_out"] = stop != Stop::Complete;
  result["stopped_by"] = stop_name(stop);
  result["duration_s"] = round_to_decimals(std::chrono::duration<double>(Clock::now() - t0).count(), 6);
  result["daemon"] = daemon_stats(c);
  std::printf("%s\n", json_text(result).c_str());
  return stop == Stop::Complete ? 0 : 4;
}

}  // namespace dissem::load
