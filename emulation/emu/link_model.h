// The emulator's core, without I/O: frames go in with the time they were
// sent, deliveries come out with the time they are due. Everything random
// comes from seeded generators, so the model runs in virtual time in the unit
// tests exactly as it runs on the wall clock in the emulator. The link
// effects themselves (loss and burst loss, delay, duplicates, rates and
// drop-tail queues, shared and half-duplex channels) are the link-effects
// model of src/link, which the simulator's medium drives too; this class
// maps EEL effects and options onto it and keeps the events.
//
// Path of one frame sent by node S at time t:
//  1. classify the destination MAC: broadcast/multicast -> every other node;
//     unicast -> the node owning the MAC (none: dropped, counted);
//  2. radio stage (only with --radio-bps[-node] or --shared-channel-bps): the
//     frame is serialised at the radio's rate through a drop-tail queue
//     (link::Channel); it leaves the radio at t' (t' = t without one);
//  3. link stage, for each receiver R, with the effects of link S -> R in
//     force at t': loss draw (EEL loss, Gilbert-Elliott on top), then the
//     link's own drop-tail serialisation at unicast_bps or broadcast_bps
//     (0 = not queued; the rate in force when the copy entered), cut-through
//     behind the radio: it starts when the frame began to leave the radio or
//     when the link is free, whichever is later, and ends at t'' = that start
//     plus the frame at the link's rate, never before t' (a link at least as
//     fast as the radio adds nothing; a slower one is the one bottleneck, as
//     EMANE's comm effect shim sees min(radio, link)); the copy is due at t'' + latency + U[0, jitter]; a duplicate, if
//     drawn, gets its own jitter draw and takes no link capacity. The draws
//     are link_draws.h's, in its order, from the link's own stream.
// With a half-duplex channel (a round-robin link::Channel) in place of the
// radio stage, a copy due at a node while that node is on the air is lost
// (counted as half_duplex_dropped).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "counters.h"
#include "core/random.h"
#include "ethernet.h"
#include "link_effects.h"
#include "link/channel.h"
#include "link/gilbert_elliott.h"
#include "link/link_spec.h"

namespace dissem::emu {

using link::GilbertParams;
using link::parse_gilbert;

// A half-duplex (simplex) radio channel shared by every node, as an HF net
// under STANAG 5066 (link::Channel with Turns::round_robin).
struct HalfDuplexParams {
  std::uint64_t bps = 0;  // 0: no half-duplex channel
  TimeNs turnaround = 0;
  TimeNs max_hold = 0;    // 0: a holder keeps the channel while it has frames
};

// Burst loss on one ordered link, in place of ModelConfig::gilbert there.
struct LinkGilbert {
  NodeId sender = 0;
  NodeId receiver = 0;
  GilbertParams params;
};

struct ModelConfig {
  std::size_t nodes = 0;
  std::size_t queue_packets = 50;         // waiting frames per queue (radio, link, shared channel per sender)
  std::vector<std::uint64_t> radio_bps;   // per node, index id-1; empty or 0 = no radio stage
  std::uint64_t shared_channel_bps = 0;   // > 0: one channel for all senders (excludes radio_bps)
  std::optional<GilbertParams> gilbert;   // burst loss on every link
  std::vector<LinkGilbert> link_gilbert;  // per link, overrides `gilbert` on that link
  HalfDuplexParams half_duplex;           // bps > 0: one half-duplex channel (excludes radio and shared)
  bool default_connected = true;          // links not set by the EEL: no effects, or disconnected
  std::uint32_t overhead_bytes = 0;       // added to each frame's length when serialising
  std::uint64_t seed = 1;
};

using Frame = std::vector<std::uint8_t>;
using FramePtr = std::shared_ptr<const Frame>;

struct Delivery {
  TimeNs due = 0;
  NodeId sender = 0;
  NodeId receiver = 0;
  FramePtr frame;
};

class LinkModel {
 public:
  // Throws std::invalid_argument on an inconsistent configuration.
  LinkModel(ModelConfig config, AddressPlan addresses);

  // Changes link sender -> receiver now (before any frame is offered: the
  // EEL's time-0 events) or at run time `at`.
  void set_effects(NodeId sender, NodeId receiver, const LinkEffects& effects);
  void schedule_effects(TimeNs at, NodeId sender, NodeId receiver, const LinkEffects& effects);

  // A frame node `sender` sent at `now`. Times passed to offer and poll must
  // not go backwards.
  void offer(TimeNs now, NodeId sender, FramePtr frame);

  // Appends every delivery due at or before `now`, in due order.
  void poll(TimeNs now, std::vector<Delivery>& out);

  // When poll next has something to do (a delivery, a frame leaving a radio,
  // a scheduled effects change); nullopt when nothing is pending.
  std::optional<TimeNs> next_deadline() const;

  const LinkEffects& effects(NodeId sender, NodeId receiver) const { return link(sender, receiver).effects; }
  const Counters& counters() const { return counters_; }
  Counters& counters() { return counters_; }
  std::size_t effect_changes_applied() const { return effect_changes_applied_; }
  std::size_t effect_changes_pending() const { return effect_changes_.size() - effect_changes_applied_; }
  // Hand-overs of the half-duplex channel from one node to another (0 without one).
  std::uint64_t half_duplex_turnarounds() const {
    return config_.half_duplex.bps > 0 ? radios_.front().turnarounds() : 0;
  }
  const ModelConfig& config() const { return config_; }
  const AddressPlan& addresses() const { return addresses_; }

 private:
  // A copy that survived the loss draw, with its delays drawn, waiting for
  // the link's rate limit.
  struct LinkCopy {
    FramePtr frame;
    std::uint64_t bps = 0;  // the link's rate for its class when it entered
    TimeNs on_air = 0;      // when it began to leave its sender (the radio's start, or the offer)
    TimeNs delay = 0;
    std::optional<TimeNs> duplicate_delay;
  };
  struct LinkState {
    explicit LinkState(std::uint64_t seed) : rng(seed) {}
    LinkEffects effects;
    link::LinkSpec spec;  // `effects` in the model's terms, with the link's burst loss
    Random rng;  // one stream per link: traffic on one link never shifts another's draws
    link::GilbertElliott chain;
    std::unique_ptr<link::Channel<LinkCopy>> queue;  // made on first use: few of the N^2 links have a rate
    TimeNs free_at = 0;  // end of the link's last serialisation
  };
  using Radio = link::Channel<FramePtr>;

  enum class EventKind { leave_radio, leave_link, deliver, change_effects };
  struct Event {
    TimeNs at = 0;
    std::uint64_t order = 0;  // ties keep the order events were made in
    EventKind kind = EventKind::deliver;
    NodeId sender = 0;
    NodeId receiver = 0;
    FramePtr frame;
    std::size_t change = 0;  // index into effect_changes_, or of the radio for leave_radio
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.at != b.at ? a.at > b.at : a.order > b.order;
    }
  };
  struct EffectChange {
    NodeId sender;
    NodeId receiver;
    LinkEffects effects;
  };

  LinkState& link(NodeId s, NodeId r) { return links_[(s - 1) * config_.nodes + (r - 1)]; }
  const LinkState& link(NodeId s, NodeId r) const { return links_[(s - 1) * config_.nodes + (r - 1)]; }
  void push(TimeNs at, EventKind kind, NodeId sender, NodeId receiver, FramePtr frame, std::size_t change = 0);
  void advance(TimeNs now);
  bool has_radio(NodeId sender) const;
  // One radio for all (shared or half-duplex channel), its senders in slots
  // id-1; else one radio per node, with one slot.
  bool one_radio() const { return config_.half_duplex.bps > 0 || config_.shared_channel_bps > 0; }
  std::size_t radio_of(NodeId sender) const { return one_radio() ? 0 : sender - 1; }
  std::size_t slot_of(NodeId sender) const { return one_radio() ? sender - 1 : 0; }
  NodeId sender_on(std::size_t radio, std::size_t slot) const { return one_radio() ? slot + 1 : radio + 1; }
  std::uint64_t rate_of_radio(std::size_t radio) const;
  void start_radio(TimeNs now, std::size_t radio);
  void leave_radio(const Event& e);
  // `on_air`: when the frame began to leave the sender; `now`: when it has left.
  void enter_links(TimeNs on_air, TimeNs now, NodeId sender, const FramePtr& frame);
  void enter_link(TimeNs on_air, TimeNs now, NodeId sender, NodeId receiver, const FramePtr& frame, FrameClass cls);
  LinkCopy draw_copy(NodeId sender, NodeId receiver, FramePtr frame, std::uint64_t bps, TimeNs on_air);
  void start_link(TimeNs now, NodeId sender, NodeId receiver);
  void leave_link(const Event& e);
  void push_deliveries(TimeNs sent, NodeId sender, NodeId receiver, const LinkCopy& copy);
  void deliver(Event& e);
  TimeNs wire_time(const Frame& frame, std::uint64_t bps) const;

  ModelConfig config_;
  AddressPlan addresses_;
  std::vector<LinkState> links_;
  // One per node (radio_bps), or one for all: the shared or half-duplex channel.
  std::vector<Radio> radios_;
  std::vector<EffectChange> effect_changes_;
  std::size_t effect_changes_applied_ = 0;
  std::vector<Event> events_;  // a min-heap under Later (a vector so events can be moved out)
  std::uint64_t next_order_ = 0;
  std::vector<Delivery> due_;  // popped by advance(), handed out by poll()
  Counters counters_;
};

}  // namespace dissem::emu
