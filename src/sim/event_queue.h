// Deterministic discrete-event queue in virtual time. Events run in order of
// time, then of scheduling (a sequence number breaks ties), so a run never
// depends on heap layout or on how the standard library orders equal keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/types.h"

namespace dissem::sim {

class EventQueue {
 public:
  using Action = std::function<void()>;

  // Runs `action` at virtual time `at` (>= now(); earlier is a logic error).
  void schedule(Micros at, Action action);

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  // Time of the earliest pending event; only valid when !empty().
  Micros next_time() const;
  Micros now() const { return now_; }
  std::uint64_t executed() const { return executed_; }

  // Pops the earliest event, advances now() to its time and runs it.
  // Returns false if nothing was pending.
  bool run_next();

  // Moves the clock forward without running anything; `t` must not pass a
  // pending event (that would run it in the past).
  void advance_to(Micros t);

 private:
  // The heap holds small, trivially copied keys; the actions stay in place
  // in `actions_` (slots reused through `free_`), so sifting an entry up or
  // down the heap never moves a std::function.
  struct Entry {
    Micros time;
    std::uint64_t seq;
    std::size_t slot;
  };
  // std::*_heap keeps the greatest on top; "greater" = later.
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };

  std::vector<Entry> heap_;
  std::vector<Action> actions_;
  std::vector<std::size_t> free_;
  Micros now_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t executed_ = 0;
};

}  // namespace dissem::sim
