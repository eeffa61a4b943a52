// A half-duplex (simplex) radio channel shared by every node, as an HF net
// under STANAG 5066: one node transmits at a time, at the channel's rate; a
// node that is transmitting hears nothing; and handing the channel to another
// node costs the turnaround time (the last transmitter's radio and modem go
// back to receive, the next one's key up and send their preamble).
//
// Scheduling, event-driven (unlike the arithmetic FIFO queues of
// serialiser.h, because who transmits next depends on who is waiting when the
// channel frees):
//  * each node has its own drop-tail queue of frames waiting (the limit
//    counts frames waiting, not the one on the air, as everywhere);
//  * the node holding the channel keeps sending its waiting frames back to
//    back, in one continuous transmission, as STANAG 5066 stacks datagrams;
//  * it hands over when its queue is empty, or, when others wait, once it has
//    held the channel for max_hold (0: no limit; a frame is never cut);
//  * the next holder is the next node, in id order after the last holder,
//    with a frame waiting; its first frame starts no earlier than turnaround
//    after the last transmission ended (no wait if the channel has been
//    quiet that long).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "emu_time.h"
#include "link_effects.h"

namespace dissem::emu {

struct HalfDuplexParams {
  std::uint64_t bps = 0;  // 0: no half-duplex channel
  TimeNs turnaround = 0;
  TimeNs max_hold = 0;    // 0: a holder keeps the channel while it has frames
};

class HalfDuplexChannel {
 public:
  using Payload = std::shared_ptr<const std::vector<std::uint8_t>>;

  struct Transmission {
    NodeId sender = 0;
    Payload frame;
    TimeNs start = 0;
    TimeNs end = 0;
  };

  HalfDuplexChannel(std::size_t nodes, HalfDuplexParams params);

  // Queues a frame of `duration` on the air; false (dropped) when `limit`
  // frames of this sender already wait. `now` must not go backwards.
  bool offer(TimeNs now, NodeId sender, Payload frame, TimeNs duration, std::size_t limit);

  // End of the transmission on the air, if any: when finish() must be called.
  std::optional<TimeNs> next_end() const;

  // Takes the transmission that ends at next_end() off the air (the frame has
  // been sent) and puts the next one on the air, if any waits.
  Transmission finish();

  // Whether `node` is on the air at `t` (t at or after every earlier call's
  // time: older transmissions are forgotten).
  bool transmitting(NodeId node, TimeNs t);

  std::uint64_t turnarounds() const { return turnarounds_; }
  const HalfDuplexParams& params() const { return params_; }

 private:
  struct Waiting {
    Payload frame;
    TimeNs duration = 0;
  };
  void start_next(TimeNs now);
  std::optional<NodeId> next_holder(TimeNs now) const;

  HalfDuplexParams params_;
  std::vector<std::deque<Waiting>> queues_;  // index id-1
  std::optional<Transmission> on_air_;
  NodeId holder_ = 0;         // last node to transmit (0: none yet)
  TimeNs holder_since_ = 0;   // start of the holder's turn
  TimeNs quiet_since_ = 0;    // end of the last transmission
  std::vector<std::deque<std::pair<TimeNs, TimeNs>>> on_air_spans_;  // per node, [start, end), by start
  std::uint64_t turnarounds_ = 0;
};

}  // namespace dissem::emu
