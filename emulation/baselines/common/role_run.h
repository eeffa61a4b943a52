// What a run of a dissem-norm or dissem-pgm sender or receiver keeps about
// itself: the clock its results count on, its deadline (the time limit,
// counted from process start) and how it ended (timed out, interrupted by
// SIGINT/SIGTERM, or an error).
#pragma once

#include <cstdio>
#include <optional>
#include <string>

#include "core/json.h"
#include "run_clock.h"

namespace dissem::baseline {

// Longest single wait in a main loop, so that signals and deadlines are
// noticed promptly.
inline constexpr double kMaxWaitS = 0.1;

class RoleRun {
 public:
  // `who` (e.g. "dissem-norm receiver") starts each message on stderr.
  RoleRun(const char* who, double time_limit_s) : who_(who), time_limit_s_(time_limit_s) {}

  // Runs `body`; an Error it throws ends it, reported on stderr and kept as
  // the result's "error".
  template <typename Error, typename Body>
  void guard(Body&& body) {
    try {
      body();
    } catch (const Error& e) {
      error_ = e.what();
      std::fprintf(stderr, "%s: %s\n", who_, e.what());
    }
  }

  // Results count from now; the time limit still counts from process start.
  void start_results_clock() {
    deadline_s_ = time_limit_s_ - clock_.elapsed_s();
    clock_ = RunClock();
  }

  const RunClock& clock() const { return clock_; }
  double elapsed_s() const { return clock_.elapsed_s(); }
  double deadline_s() const { return deadline_s_; }
  double time_limit_s() const { return time_limit_s_; }
  const char* who() const { return who_; }

  // True once SIGINT or SIGTERM came; the run then counts as interrupted
  // if `interrupts` says so.
  bool stop_signalled(bool interrupts);

  // True once `now` is past the deadline; the run then counts as timed out
  // unless `done`, and says so on stderr: "time limit ... reached" and
  // `detail()`.
  template <typename Detail>
  bool out_of_time(double now, bool done, Detail&& detail) {
    if (now < deadline_s_) return false;
    if (!done) {
      timed_out_ = true;
      std::fprintf(stderr, "%s: time limit %.3f s reached%s\n", who_, time_limit_s_, std::string(detail()).c_str());
    }
    return true;
  }
  bool out_of_time(double now, bool done) {
    return out_of_time(now, done, [] { return ""; });
  }

  // "timed_out" and "interrupted".
  void add_end_members(Json& j) const;
  // "error", if there was one.
  void add_error(Json& j) const;

 private:
  const char* who_;
  double time_limit_s_;
  RunClock clock_;
  double deadline_s_ = 0;  // time limit on clock_
  bool timed_out_ = false;
  bool interrupted_ = false;
  std::optional<std::string> error_;
};

}  // namespace dissem::baseline
