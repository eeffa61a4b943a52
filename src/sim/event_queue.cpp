#include "sim/event_queue.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace dissem::sim {

void EventQueue::schedule(Micros at, Action action) {
  if (at < now_)
    throw std::logic_error("event scheduled in the past: " + std::to_string(at) + " < " + std::to_string(now_));
  std::size_t slot = actions_.size();
  if (free_.empty()) {
    actions_.push_back(std::move(action));
  } else {
    slot = free_.back();
    free_.pop_back();
    actions_[slot] = std::move(action);
  }
  heap_.push_back(Entry{at, next_seq_++, slot});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

Micros EventQueue::next_time() const {
  if (heap_.empty()) throw std::logic_error("next_time() on an empty event queue");
  return heap_.front().time;
}

bool EventQueue::run_next() {
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), Later{});
  const Entry e = heap_.back();
  heap_.pop_back();
  Action action = std::move(actions_[e.slot]);
  actions_[e.slot] = nullptr;
  free_.push_back(e.slot);
  now_ = e.time;
  ++executed_;
  // The action may schedule more events: it runs after the heap is consistent.
  action();
  return true;
}

void EventQueue::advance_to(Micros t) {
  if (t < now_) throw std::logic_error("advance_to() backwards");
  if (!heap_.empty() && heap_.front().time < t) throw std::logic_error("advance_to() past a pending event");
  now_ = t;
}

}  // namespace dissem::sim
