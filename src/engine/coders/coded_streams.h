// Window coding state per stream at a receiver: the equations of window
// symbols still involving messages it lacks (coding::WindowDecoder), whether
// the stream's messages are small (so a message lost whole is asked for by
// window), and the messages a window symbol said do not take part (asked for
// one by one). Equations hold payload copies, so their memory is bounded: past
// the budget, new equations are dropped (the requester asks again later).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>

#include "coding/window_decoder.h"
#include "core/types.h"

namespace dissem::engine {

class CodedStreams {
 public:
  explicit CodedStreams(std::uint64_t memory_budget) : budget_(memory_budget) {}

  // The stream's newest known message is (not) small.
  void note_small(const StreamId& stream, bool small);
  bool small(const StreamId& stream) const;

  // A window symbol excluded `seq`: it is not window-coded (too large, or expired).
  void note_excluded(const StreamId& stream, std::uint64_t seq);
  bool excluded(const StreamId& stream, std::uint64_t seq) const;

  coding::WindowDecoder* decoder(const StreamId& stream);
  // The stream's decoder, created if need be; nullptr when an equation of
  // `bytes` more would exceed the memory budget.
  coding::WindowDecoder* open(const StreamId& stream, std::size_t bytes);
  // Call after changing a decoder, so its memory is accounted (and an empty one freed).
  void update_memory(const StreamId& stream);

  std::uint64_t memory_bytes() const { return memory_; }
  std::size_t open_decoders() const;

 private:
  struct Entry {
    bool small = false;
    std::set<std::uint64_t> excluded;  // bounded: the newest kMaxExcluded
    std::optional<coding::WindowDecoder> decoder;
    std::size_t charged = 0;
  };
  static constexpr std::size_t kMaxExcluded = 256;
  std::uint64_t budget_;
  std::uint64_t memory_ = 0;
  std::unordered_map<StreamId, Entry, StreamIdHash> entries_;
};

}  // namespace dissem::engine
