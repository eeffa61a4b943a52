#include "receiver_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace dissem::baseline {

std::optional<double> ReceiverRun::begin_turn(double now, std::size_t completed) {
  if (stop_signalled(!printed_)) return std::nullopt;
  if (printed_ && now >= linger_until_) return std::nullopt;
  if (out_of_time(now, printed_, [&] { return fmt::format(" with {} of {} {}", completed, expect_, unit_); })) {
    return std::nullopt;
  }
  return std::min({deadline_s(), now + kMaxWaitS, printed_ ? linger_until_ : deadline_s()});
}

void ReceiverRun::add_timing_members(Json& j, const std::optional<double>& last_completion_s) const {
  j["start_unix"] = us_to_s(clock().start_unix_us());
  j["first_rx_s"] = json_or_null(first_rx_s_);
  j["last_completion_s"] = json_or_null(last_completion_s);
  add_end_members(j);
}

void ReceiverRun::print(Json j) {
  add_error(j);
  std::printf("%s\n", json_text(j).c_str());
  std::fflush(stdout);
  printed_ = true;
}

}  // namespace dissem::baseline
