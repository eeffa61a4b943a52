// Window coding across the small messages of a stream (a sliding-window
// code, as RFC 8681 and Tetrys): window symbols received become equations
// per stream that recover lost messages whole; symbols are generated for the
// publisher's proactive redundancy and as answers to window requests, which
// wait their random delay and the traffic memory as block repairs do. It owns
// the streams' equations (CodedStreams), the window images of messages
// recently coded from, and the marks our proactive symbols ended at. What
// the equations recover is handed back: the node accepts those messages as
// received ones (node_windows.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/coders/block_traffic_memory.h"
#include "engine/coders/coded_streams.h"
#include "engine/node_context.h"
#include "engine/send_queues.h"
#include "engine/timing.h"
#include "wire/codec.h"

namespace dissem::engine {

// The block traffic memory's key for a stream's window symbols (seq 0 names no message).
MessageId window_key(const StreamId& stream);

// The parts window coding reads or feeds.
struct WindowCoderSources {
  BlockTrafficMemory& block_memory;  // window symbols heard and sent, under window_key
  SendQueues& queues;                // windows_pending, then windows
  const Timing& timing;
  const wire::Limits& limits;        // recovered images are decoded with them
};

class WindowCoder {
 public:
  WindowCoder(NodeContext& node, WindowCoderSources sources);

  // A small message recovered whole.
  struct Recovered {
    MessageMeta meta;
    std::vector<std::uint8_t> payload;
  };

  // Coding on and engine.window_messages > 0.
  bool enabled() const;
  // Whether a missing message is asked for by window, not whole.
  bool member(const MessageId& id, const MessageState& st) const;
  CodedStreams& streams() { return streams_; }

  // The window image of a small message held complete here (cached), or nullptr.
  const std::vector<std::uint8_t>* image_of(const MessageId& id, Micros now);
  // A fresh window symbol over [first, first + count) of `stream`, the
  // messages not held here excluded; nullopt when none is held.
  std::optional<std::vector<std::uint8_t>> encode_symbol(const StreamId& stream, std::uint64_t first,
                                                         std::uint32_t count, bool repair, Micros now);
  // The publisher's proactive window symbol ending at its message `last`.
  std::optional<std::vector<std::uint8_t>> proactive_symbol(const MessageId& last, Micros now);

  // A window symbol of another node's stream that the node took (its
  // checks passed): its equation, and what the stream's equations now solve.
  std::vector<Recovered> add_symbol(const wire::WindowSymbol& w, Micros now);
  // A message completed here: eliminated from its stream's equations, and
  // what they now solve.
  std::vector<Recovered> on_source(const MessageMeta& meta, Micros now);
  // A message settled incomplete or was distrusted: its image goes.
  void forget_image(const MessageId& id) { images_.erase(id); }

  // The size of a window symbol this node would send for `need`: its largest
  // image among the messages the requester lacks; 0 if it holds none of them.
  std::uint32_t symbol_size(const StreamId& stream, const wire::WindowNeed& need, Micros now);
  // A window request: an answer scheduled after its random delay, or merged
  // into one pending for the stream.
  void on_request(const StreamId& stream, const wire::WindowNeed& need, Micros now);
  // Answers whose delay is over join the send queue, unless heard meanwhile.
  void release_due(Micros now);
  std::optional<Micros> next_due() const;
  // The next answer's symbol at priority `level` (nullopt: dropped instead).
  std::optional<std::vector<std::uint8_t>> next_repair(std::uint32_t level, Micros now);

 private:
  std::vector<Recovered> solve(const StreamId& stream, Micros now);

  NodeContext& node_;
  WindowCoderSources from_;
  CodedStreams streams_;
  std::unordered_map<MessageId, std::vector<std::uint8_t>, MessageIdHash> images_;
  std::deque<MessageId> image_order_;
  // Per group, the last messages our two latest proactive symbols ended at.
  std::unordered_map<std::string, std::array<std::uint64_t, 2>> proactive_marks_;
};

}  // namespace dissem::engine
