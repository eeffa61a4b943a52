// The run loop: frames read from the nodes' TAPs go into the link model,
// deliveries it makes due are written to the receivers' TAPs, and both ends
// are captured when --pcap-dir is set.
#pragma once

#include <optional>

#include "emu_time.h"
#include "emulated_network.h"
#include "link_model.h"

namespace dissem::emu {

class Forwarder {
 public:
  // `origin`: the CLOCK_MONOTONIC time that is run time 0 (the ready line).
  Forwarder(LinkModel& model, EmulatedNetwork& network, TimeNs origin);

  struct Outcome {
    int signal = 0;    // the termination signal that stopped the run, or 0
    TimeNs ran = 0;    // run time at the stop
  };
  // Runs until a termination signal or, if given, run time `stop_at`.
  Outcome run(std::optional<TimeNs> stop_at);

 private:
  void read_node(NodeId node);
  void deliver_due(TimeNs now);
  TimeNs run_now() const;

  LinkModel& model_;
  EmulatedNetwork& network_;
  TimeNs origin_;
  TimeNs realtime_offset_;  // CLOCK_REALTIME - CLOCK_MONOTONIC, for pcap stamps
  std::vector<std::uint8_t> buffer_;
  std::vector<Delivery> deliveries_;
};

}  // namespace dissem::emu
