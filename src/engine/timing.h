// Protocol timers derived from the link: nothing here is a fixed multi-second
// constant. Everything scales with the time one full fragment occupies the
// link (capacity) and with the round-trip time (measured from beacon echoes,
// or configured until measured).
#pragma once

#include <algorithm>

#include "engine/config.h"
#include "core/types.h"

namespace dissem::engine {

struct Timing {
  Micros packet_time = 0;     // one data frame of the usual size on the link (frame_size_estimate.h)
  Micros rtt = 0;
  Micros serve_delay_max = 0; // answers wait uniform [0, this] so one server usually wins
  // Air time per byte at the link capacity. Answers to a request for whole
  // messages or ranges are ranked (responder_rank.h): each rank waits one
  // turn, the air time of the request's answers plus a frame and half an RTT.
  double air_us_per_byte = 0;
  bool ranked_answers = true;  // false: a configured serve_delay_max, uniform delays
  Micros ntm_window = 0;      // how long the NTM remembers a fragment on the air
  Micros request_round = 0;   // interval between MFR rounds
  Micros request_backoff = 0; // first re-request interval of an item (then doubles)
  double drain_us_per_byte = 0; // answer time per requested byte, added to backoff
  // A fragment sent this shortly before a request arrived was probably still
  // in flight when the request left: count it as an answer to the request.
  Micros in_flight_slack = 0;
  Micros tail_timeout = 0;    // silence after which a message's missing tail is requested

  // `peers`: nodes heard lately, each a potential server of the same request.
  // `frame_bytes`: the data frames' size on the air (frame_size_estimate.h),
  // at most a full-size one; 0 = full-size (payload_size + 48 header bytes).
  static Timing derive(const EngineConfig& c, Micros rtt, std::size_t peers = 0, std::uint32_t frame_bytes = 0) {
    Timing t;
    const auto capacity = std::max<std::uint64_t>(c.link_capacity_bps, 1);
    const std::uint32_t full = c.payload_size + 48;
    const std::uint32_t frame = frame_bytes == 0 ? full : std::min(frame_bytes, full);
    const auto frame_bits = static_cast<std::uint64_t>(frame + c.per_datagram_overhead) * 8;
    t.packet_time = static_cast<Micros>(frame_bits * static_cast<std::uint64_t>(kSeconds) / capacity);
    t.rtt = std::max<Micros>(rtt, 1 * kMillis);
    // A few packet times lets the first answer reach the other would-be
    // servers before their own timers fire; half an RTT covers propagation.
    // With more would-be servers the window widens with them (as SRM's and
    // NORM's timers scale with the group), so that about one fires first.
    const auto servers = static_cast<Micros>(std::max<std::size_t>(peers, 1));
    t.serve_delay_max = c.serve_delay_max > 0 ? c.serve_delay_max
                                              : (2 + servers) * t.packet_time + t.rtt / 2;
    t.air_us_per_byte = 8.0 * static_cast<double>(kSeconds) / static_cast<double>(capacity);
    t.ranked_answers = c.serve_delay_max == 0;
    // Servers suppress a fragment seen on the air *since the request arrived*;
    // the window only bounds memory, so it must outlast any answer's wait.
    t.ntm_window = c.ntm_window > 0 ? c.ntm_window
                                    : std::max<Micros>(2 * kSeconds, 8 * (t.serve_delay_max + t.rtt));
    t.request_round = std::clamp<Micros>(t.rtt / 2 + 2 * t.packet_time, 5 * kMillis, 2 * kSeconds);
    // Re-request only once an answer could have come back: the servers'
    // random delay, the round trip, and (per round) the time to send what was
    // asked for at half the link rate (answers share it with publications).
    t.request_backoff = t.serve_delay_max + t.rtt + 2 * t.packet_time;
    t.drain_us_per_byte = 2.0 * 8.0 * static_cast<double>(kSeconds) / static_cast<double>(capacity);
    t.tail_timeout = t.rtt + 4 * t.packet_time;
    t.in_flight_slack = t.packet_time + t.rtt / 2;
    return t;
  }
};

}  // namespace dissem::engine
