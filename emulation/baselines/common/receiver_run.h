// The run of a dissem-norm or dissem-pgm receiver: it receives until
// --expect messages are complete, prints its result at once (so that a
// harness reading stdout need not wait), then lingers for --linger seconds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/json.h"
#include "role_run.h"

namespace dissem::baseline {

class ReceiverRun : public RoleRun {
 public:
  // `unit` names what `expect` counts in messages ("objects", "messages").
  ReceiverRun(const char* who, const char* unit, double time_limit_s, std::uint32_t expect, double linger_s)
      : RoleRun(who, time_limit_s), unit_(unit), expect_(expect), linger_s_(linger_s) {}

  bool complete(std::size_t completed) const { return completed >= expect_; }

  // The top of a loop turn at `now` with `completed` messages: the time on
  // the clock to be back by (the deadline, the linger's end, at most
  // kMaxWaitS away), or nullopt when the run is over (a stop signal, the
  // linger over, the time limit reached).
  std::optional<double> begin_turn(double now, std::size_t completed);

  // The end of a loop turn: prints result() (a Json) once `completed`
  // reaches expect, and starts the linger.
  template <typename Result>
  void end_turn(std::size_t completed, Result&& result) {
    if (printed_ || !complete(completed)) return;
    print(result());
    linger_until_ = elapsed_s() + linger_s_;
  }

  // After the loop: prints result() unless printed already.
  template <typename Result>
  void finish(Result&& result) {
    if (!printed_) print(result());
  }

  // A packet or message arrived at `s` on the clock.
  void note_rx(double s) {
    if (!first_rx_s_) first_rx_s_ = s;
  }

  // "start_unix", "first_rx_s", "last_completion_s", "timed_out", "interrupted".
  void add_timing_members(Json& j, const std::optional<double>& last_completion_s) const;

 private:
  // Prints `j` and "error", if any, as one line on stdout.
  void print(Json j);

  const char* unit_;
  std::uint32_t expect_;
  double linger_s_;
  bool printed_ = false;
  double linger_until_ = 0;
  std::optional<double> first_rx_s_;
};

}  // namespace dissem::baseline
