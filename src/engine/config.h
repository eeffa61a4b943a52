// Engine tunables. Every field has a default that works; values derived from
// link capacity and round-trip time are computed by timing.h, not stored here.
#pragma once

#include <cstdint>
#include <string>

#include "controllers/controller_settings.h"
#include "engine/cache_outage.h"
#include "engine/link_thresholds.h"
#include "engine/security/security_config.h"
#include "core/types.h"

namespace dissem::engine {

struct EngineConfig {
  NodeId node_id = 1;
  std::uint64_t seed = 1;  // the engine's only source of randomness

  // --- link ---------------------------------------------------------------
  std::uint64_t link_capacity_bps = 1'000'000;  // nominal capacity of this node's link
  std::uint64_t rate_limit_bps = 0;             // own transmit budget; 0 = link capacity
  // When both own publications and repairs are waiting, repairs get this
  // share (the sender keeps priority, as in the paper's set-up).
  double repair_share = 0.3;
  // The send queues are strict by message priority; while a higher level
  // keeps them busy, lower levels that wait still get this share of the
  // bytes, taking turns from the highest down (engine/priority_floor.h).
  // 0 = strict priority (a saturating level starves the ones below).
  double priority_floor = 0.05;
  // Bundling: frames smaller than a full fragment share a datagram, up to
  // payload_size bytes. A datagram with room left waits at most this long
  // for company (control traffic never waits: it goes with what is there).
  // 0 = no bundling, every frame its own datagram.
  Micros bundle_delay = 10 * kMillis;
  // Flow control: own publications waiting for the link may take at most
  // this much link time (bytes at rate_limit_bps, or link_capacity_bps),
  // overall and per group; a publish beyond it is refused with QueueFull
  // (the client waits for room or fails at once). A message larger than a
  // budget is still taken when nothing of its budget waits. 0 = unbounded.
  Micros send_budget = 120 * kSeconds;
  Micros group_send_budget = 60 * kSeconds;
  // Channel awareness (engine/channel_share.h): pace at the capacity less the
  // occupancy heard from others, never below channel_share_min of it. Works
  // on one shared channel and with a radio per node alike.
  bool channel_aware = true;
  double channel_share_min = 0.05;
  // Rate adaptation (engine/rate_adaptation.h): a standing queue between us
  // and a neighbour (its echoes' round trips well above their recent
  // minimum, or runs of our beacons it never heard) lowers the pace below
  // what the link carries, by as much as the queue's growth says
  // (engine/queue_growth.h), and quiet echoes raise it back; never below
  // channel_share_min of the rate. For radios that slow down without
  // telling the host. A node with it on builds each beacon as the pacer
  // lets it go (so its echoes' hold times cover its whole wait) and
  // reports, in its echoes, the rate it receives each neighbour at (wire
  // Echo.received_bytes_per_s). Off by default: in a full emulated campaign
  // with it on, links that never slowed stayed within a few per cent on
  // radios of their own, but on one shared channel the contention in the
  // round trips cut the pace, up to 4x slower in a crowd of 20
  // (docs/protocol.md, docs/results/runtime.txt).
  bool rate_adaptation = false;
  // Bytes below the UDP payload the rate limiter charges per datagram (IPv4 + UDP).
  std::uint32_t per_datagram_overhead = 28;
  // Fragment payload bytes (the paper used 1400). 0 means "size it to the
  // link": only a host that knows its interfaces' MTU can resolve it (dissemd
  // does, see daemon_config.h); the engine refuses to start with 0.
  std::uint32_t payload_size = 1400;
  std::size_t max_queued_datagrams = 4096;  // per send queue (publications, repairs)

  // Round trip used until one is measured from beacon echoes.
  Micros configured_rtt = 50 * kMillis;
  // Control traffic (beacons and requests, half each) stays within this
  // share of the link capacity (engine/link_timers.h).
  double control_share = 0.05;

  // --- missing-fragment requests ------------------------------------------
  double request_probability = 0.7;    // p: chance each eligible item joins a round's MFR
  double traffic_gate_fraction = 0.8;  // no MFRs while incoming traffic >= this x capacity
  // No answers while incoming traffic >= this x capacity; 0 = answer always.
  // Off by default: with per-node radios (MANE's model) a receiver's answers
  // do not take air time from the sender, and gating them starves repair.
  double serve_gate_fraction = 0.0;
  Micros traffic_window = 0;  // sliding window of the incoming-traffic meter; 0 = derived (link_timers.h)
  std::uint32_t max_backoff_exponent = 5;  // an item's interval doubles at most this often
  double mfr_budget_fraction = 0.05;       // MFR bytes per round <= this share of capacity
  Micros reorder_time = 200 * kMillis;     // ordered-unreliable: wait this long for a gap

  // --- serving requests -----------------------------------------------------
  bool serve_requests = true;  // false: e.g. a sender behind a receive-less link
  // Radio silence (EMCON, ACP 142) from start-up: the node transmits
  // nothing at all, not even beacons, until Node::set_silent(false)
  // (docs/ARCHITECTURE.md, "Radio silence").
  bool silent = false;
  bool cache_unsubscribed = true;  // opportunistic listening
  bool use_traffic_memory = true;  // false: answer every request (for experiments)
  Micros ntm_window = 0;        // 0 = derived from RTT and capacity
  Micros serve_delay_max = 0;   // 0 = derived
  // Serving budget (engine/serve_budget.h): the repair bytes one known
  // requester (a node whose beacons we hear) may cause per second, as a share
  // of link capacity; what all unknown requesters together may cause; and
  // how many seconds of it a requester may bank (also the most one request
  // may ask for). Requests beyond it are trimmed.
  double serve_member_share = 0.5;
  double serve_stranger_share = 0.1;
  Micros serve_burst = 4 * kSeconds;

  // --- erasure coding (coding/) ---------------------------------------
  // Repairs are coded symbols (linear combinations of a block's fragments):
  // one symbol fixes different losses at different receivers, requests state
  // a deficit per block, and the publisher adds proactive redundancy. false:
  // plain ARQ, fragment by fragment (the coded requests of others are still
  // answered, with the fragments their bitmaps lack).
  bool coding = true;
  std::uint32_t block_symbols = 64;  // source fragments per coding block (NORM's default too)
  // Small messages (whose whole datagram fits one fragment's payload) are
  // also coded across messages: the publisher's proactive redundancy for
  // them is window symbols over its last `window_messages` messages of the
  // stream, and requests for lost small messages state a deficit over a
  // window of the stream (wire.proto: WindowSymbol, WindowNeed). 0: small
  // messages get plain copies, as with coding off. At most 64.
  std::uint32_t window_messages = 16;
  // Proactive redundancy, as a fraction of each block's fragments: sized from
  // the loss receivers report (loss / (1 - loss)), never below
  // redundancy_min (what a one-way link, hearing no report, gets) nor above
  // redundancy_max.
  double redundancy_min = 0.0;
  double redundancy_max = 1.0;
  // Whose loss sizes it (coders/redundancy_planner.h) once the receivers are
  // known to have radios of their own (radio_model.h): enough that this
  // share of the reporting receivers (at least two of three or more) hold
  // each block after the first pass; the holders' radios repair the rest
  // while the publisher's goes on. On a channel that may be shared, always
  // the worst receiver's: there the holders' answers take the same air as
  // the publisher's parity. 1: the worst receiver's in any case.
  double redundancy_cover = 0.5;
  // No proactive redundancy while more than this much link time of other
  // publications waits: redundancy must not cost the publisher its offered load.
  Micros redundancy_backlog = 2 * kSeconds;
  std::uint64_t coding_memory = 64ull << 20;  // bytes of partially decoded blocks held
  // Receivers this publisher cannot hear (silent under EMCON, or behind a
  // receive-only link): the loss they are expected to have, and the chance
  // each of them should decode every block from the first pass alone. With
  // a loss above 0 every block carries at least the parity that reaches the
  // target on a binomial loss model (coders/redundancy_planner.h), whatever
  // the reports and the backlog say: such receivers have nothing else.
  double silent_receivers_loss = 0.0;
  double silent_delivery_target = 0.999;

  // --- beacons and peers -----------------------------------------------------
  // 0 = derived from the link capacity (engine/link_timers.h): 1 s and 5 s
  // on links faster than about 40 kbit/s, longer below.
  Micros beacon_interval = 0;
  Micros peer_silent_after = 0;
  // A neighbour whose clock differs from ours by more than this raises a
  // ClockSkew event (clock_offset.h): expiry is absolute, so the clocks
  // decide when messages expire. 0 = no events (the offsets are still shown).
  Micros max_clock_skew = 2 * kSeconds;
  // When the cache cannot write (a full disk): pause taking and asking for
  // data until a write succeeds again, or also evict (the deletion
  // controller's choice) down to 90 % of what it held (cache_outage.h).
  CacheFullPolicy cache_full = CacheFullPolicy::Pause;

  // --- defensive limits --------------------------------------------------
  std::uint32_t max_message_size = 64u << 20;     // larger total_length is rejected
  std::size_t max_group_name = 255;
  std::size_t max_tracked_messages = 200'000;     // incomplete messages tracked at once
  // Messages known only from hearsay (beacons, summaries, requests; no
  // fragment or symbol seen) beyond the newest a stream's data showed are
  // forgotten after this long; data displaces them when the tracker is full.
  Micros hearsay_lifetime = 0;  // 0 = derived (link_timers.h): 60 s, longer on slow links
  std::size_t max_streams = 4096;                 // streams learnt from hearsay; data may add more
  std::size_t max_peers = 1024;                   // neighbours tracked at once (beacons from more are not)
  std::uint64_t reassembly_memory = 64ull << 20;  // bytes of in-memory reassembly for subscribed groups
  std::size_t max_request_fragments = 4096;       // fragments one MFR may ask us to send

  // --- link monitoring for applications (link_quality.h, link_watch.h) ---
  // Received and sent rates are measured over this window; events fire
  // when a neighbour's loss or received rate crosses these thresholds
  // (engine.link_loss_threshold, link_loss_hysteresis, link_rate_threshold,
  // link_rate_hysteresis; an IPC client may ask for its own).
  Micros link_rate_window = 5 * kSeconds;
  LinkThresholds link_thresholds;

  // --- controllers ---------------------------------------------------------
  // Forwarding, replication and deletion (controllers/controller_settings.h).
  // Named by their own key table ([controllers] in dissemd), not config_keys.
  controllers::ControllerSettings controllers;

  // --- keys (authenticated groups) ------------------------------------------
  // Filled by the host from key files (dissemd: [security]); empty = open.
  // Not in config_keys: key material is never text in a configuration.
  SecurityConfig security;

  // --- derived values: each written once, here ------------------------------
  // The rate this node sends at, at most: its own budget, else the link's capacity.
  std::uint64_t send_rate_bps() const { return rate_limit_bps != 0 ? rate_limit_bps : link_capacity_bps; }
};

}  // namespace dissem::engine
