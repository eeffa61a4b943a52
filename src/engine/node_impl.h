// Private state of engine::Node: the node's parts, each a member named for
// it, over one NodeContext (docs/ARCHITECTURE.md, "Parts of the node").
// Parts that own their state and logic are classes in sub-folders:
//   security/   Security (security)          sealed datagrams, signed manifests
//   coders/     BlockCoder (coder), WindowCoder (window_coder)
//   repair/     RepairServer (repair_server)  answering requests
//   requests/   RequestRounds (request_rounds) our MFRs
//   replication/ Replicator (replicator)     summaries and pushes
//   subscribers/ LocalSubscribers (subscribers), ApplicationEvents (events)
//   receiver/   Receiver (receiver)           datagrams opened, decoded, metered
//   publisher/  Publisher (publisher)         our publications, flow control
//   ending/     Superseder (superseder), EndedClaims (ended_claims),
//               MessageExpiries (expiries)    how messages end undelivered
// and beside this file Beacons (beacons) and Integrity (integrity). The
// rest of the node's logic is NodeImpl's,
// in node_*.cpp files by job:
//   node_api.cpp          engine::Node: each public call handed here
//   node.cpp              construction, restart, timers, deadlines, housekeeping, request round gate
//   node_receive.cpp      each kind of received frame handled; a fragment accepted
//   node_coding.cpp, node_windows.cpp  coded and window symbols received, what they recover accepted
//   node_streams.cpp      streams learnt, messages settled
//   node_send.cpp         the per-datagram choice among the send queues (queues)
//   node_bundling.cpp     frames bundled into one datagram            (bundling)
//   node_forwarding.cpp   the forwarding controller's rebroadcasts: judged, delayed, released
//   node_emcon.cpp        radio silence (EMCON): set_silent, what waits for the air dropped
//   node_cache_queries.cpp, node_links.cpp, node_relay_watch.cpp: as named
//   controller_view.cpp   what controllers may see of the node (NodeView)
#pragma once

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "controllers/deletion/deletion_controller.h"
#include "controllers/forwarding/forwarding_controller.h"
#include "controllers/node_view.h"
#include "controllers/replication/replication_controller.h"
#include "engine/subscribers/application_events.h"
#include "engine/beacons.h"
#include "engine/coders/block_traffic_memory.h"
#include "engine/bundle_state.h"
#include "engine/channel_share.h"
#include "engine/radio_model.h"
#include "engine/rate_adaptation.h"
#include "engine/relay_watch.h"
#include "engine/coders/block_coder.h"
#include "engine/coders/window_coder.h"
#include "engine/frame_size_estimate.h"
#include "engine/controller_view.h"
#include "engine/two_hop_neighbours.h"
#include "engine/arrived_from.h"
#include "engine/ending/ended_claims.h"
#include "engine/ending/superseder.h"
#include "engine/integrity.h"
#include "engine/publisher/publisher.h"
#include "engine/interests.h"
#include "engine/leveled_queue.h"
#include "engine/link_quality.h"
#include "engine/link_watch.h"
#include "engine/subscribers/local_subscribers.h"
#include "engine/ending/message_expiries.h"
#include "engine/security/manifest_chain.h"
#include "engine/message_tracker.h"
#include "engine/node_context.h"
#include "engine/node_types.h"
#include "engine/own_publications.h"
#include "engine/group_naming.h"
#include "engine/peers.h"
#include "engine/priority_floor.h"
#include "core/random.h"
#include "engine/rate_limiter.h"
#include "engine/receiver/receiver.h"
#include "engine/reception_meter.h"
#include "engine/coders/redundancy_planner.h"
#include "engine/replication/replicator.h"
#include "engine/requests/request_rounds.h"
#include "engine/repair/repair_server.h"
#include "engine/security/security.h"
#include "engine/send_queues.h"
#include "engine/security/datagram_auth.h"
#include "engine/timing.h"
#include "engine/network_traffic_memory.h"
#include "wire/codec.h"

namespace dissem::engine {

using wire::block_symbols_of;



// The node: its parts, composed over one NodeContext (configuration,
// counters, tracker, cache, randomness), and the timers that drive them.
class NodeImpl : public NodeContext {
 public:
  NodeImpl(const EngineConfig& config, std::unique_ptr<cache::Store> store, Micros now);

  // node_cache_queries.cpp
  std::optional<Delivery> get(const MessageId& id, Micros now);
  // A message held whole and unexpired: its meta and its bytes as stored
  // (sealed groups still sealed). get() and Node::held_whole read through it.
  std::optional<std::pair<MessageMeta, std::vector<std::uint8_t>>> read_whole(const MessageId& id, Micros now);
  std::vector<CachedMessage> list(const ListRequest& request);
  void on_timer(Micros now);
  Micros next_deadline() const;

  // node_forwarding.cpp: the forwarding controller's verdict on a fragment
  // held for the first time; a rebroadcast waits in queues.forwards.
  void offer_to_forwarding(const MessageMeta& meta, std::uint32_t offset, std::uint32_t length, bool subscribed,
                           const ArrivedFrom& from, Micros now);
  // A fragment this node may not hold yet (received, or recovered by
  // decoding): tracked, cached, offered to the forwarding controller. Data
  // under our own id never gets here: the receive path refuses it first
  // (handle_data, on_coded_symbol; window symbols of our streams are ignored).
  FragmentOutcome accept_fragment(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                                  bool subscribed, const ArrivedFrom& from, Micros now);

  // node_coding.cpp
  void on_coded_symbol(const wire::CodedSymbol& c, std::size_t size, Micros now);
  // A new source fragment of an incomplete message: into its block's decoder, if one is open.
  void feed_decoder(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                    std::uint32_t block_symbols, bool subscribed, Micros now);
  // What a completed block recovered, accepted as received fragments.
  void accept_recovered(const MessageMeta& meta, const BlockCoder::Recovered& block, bool subscribed, Micros now);

  // node_windows.cpp: a window symbol received, and the small messages
  // the window coder recovers (accepted as received).
  void on_window_symbol(const wire::WindowSymbol& w, std::size_t size, Micros now);
  void accept_window_recovered(const std::vector<WindowCoder::Recovered>& messages, Micros now);

  // node_bundling.cpp: the next datagram the pacer allows: one frame, or
  // several bundled (engine.bundle_delay_ms), sealed.
  std::optional<OutgoingDatagram> poll_datagram(Micros now);
  // When a bundle being filled must go even without more company.
  std::optional<Micros> bundle_due() const;

  // node_emcon.cpp: radio silence (EMCON). While `silent` nothing leaves
  // the node: no datagram is polled, and nothing is built for the air but
  // our own publications, which wait for silence to end.
  void set_silent(bool on, Micros now);
  // Whether the cache says this node was silent when it last ran.
  bool silence_kept() const;
  bool silent = false;
  // With rate adaptation, a due beacon is built when the pacer lets it go
  // (node_send.cpp), so that the hold times it reports in its echoes cover
  // its whole stay here: a beacon that waited in our pacer behind data
  // would add that wait to every neighbour's round trip, a queue they
  // would cut their own pace for.
  bool beacon_pending = false;
  // node_send.cpp: the next frame to send, unsealed (nullopt: nothing queued).
  std::optional<OutgoingDatagram> next_frame(Micros now);
  // The next datagram of priority level `level` (nullopt: an item was dropped instead).
  std::optional<OutgoingDatagram> send_at_level(std::uint32_t level, Micros now);

  wire::Limits limits;
  GroupNaming naming;  // short group references: learnt, our own, and when to name in full

  PeerTable peers;
  NetworkTrafficMemory ntm;
  ChannelShare channel;
  RadioModel radio_model;  // radios of their own, or one shared channel (radio_model.h)
  RateAdaptation adaptation;  // a cap on the pace from queueing delay (rate_adaptation.h)
  Pacer pacer;
  PrioritySplit split;  // publications against repairs, within one priority level
  PriorityFloor floor;  // lower levels' share while a higher one saturates
  Security security{*this};  // authenticated groups (security.h)
  Timing timing;
  FrameSizeEstimate frame_sizes;  // the data frames on the air, for timing
  BlockCoder coder{*this};  // block coding: layouts, decoders, fresh symbols (block_coder.h)
  BlockTrafficMemory block_memory;
  ReceptionMeter reception;
  RedundancyPlanner redundancy;
  LinkQuality links;     // per neighbour, for applications (node_links.cpp)
  LinkWatch link_watch;  // engine.link_* thresholds: Event::Kind::LinkChanged

  // The controllers in force (Node::set_*_controller replaces one at run time).
  std::unique_ptr<controllers::ForwardingController> forwarding;
  std::unique_ptr<controllers::ReplicationController> replication;
  std::unique_ptr<controllers::DeletionController> deletion;
  ControllerView view{*this};
  InterestTable interests;  // filled only when forwarding->interest_radius() > 0
  // Whom each established neighbour hears (two_hop_neighbours.h), for relay-set forwarding.
  TwoHopNeighbours two_hop{config.max_peers, std::min<std::size_t>(config.max_peers, kMaxTwoHopPerPeer)};
  RelayWatch relay_watch;

  SendQueues queues;
  BundleState bundling;
  WindowCoder window_coder{*this, WindowCoderSources{block_memory, queues, timing, limits}};  // window_coder.h
  // Other nodes' requests answered (repair_server.h).
  RepairServer repair_server{*this, RepairServerSources{coder, window_coder, block_memory, ntm, queues, timing, peers}};
  Replicator replicator{*this, ReplicatorSources{replication, view, timing, ntm, queues, pacer}};

  ApplicationEvents events;  // to applications, integrity alarms rate-limited

  OwnPublications own;
  // Claims that streams ended, and what has ended below a watermark (ending/ended_claims.h).
  EndedClaims ended_claims{*this, EndedClaimsSources{events, settled_callback()}};
  // Replace and cancel applied to what this node holds (ending/superseder.h).
  Superseder superseder{*this, SupersederSources{queues, own, ended_claims.streams(), settled_callback()}};
  Integrity integrity{*this, IntegritySources{events, coder, window_coder, own}};  // digests, forged own data
  MessageExpiries expiries;  // dropped at their moment (expire_due)
  Publisher publisher{*this, PublisherSources{security, queues, own, expiries, superseder, limits, settled_callback()}};
  RequestRounds request_rounds{*this, RequestRoundsSources{coder, window_coder, reception, timing}};
  Micros next_housekeeping = 0;
  // Local applications' subscriptions, plain and durable, and their deliveries.
  LocalSubscribers subscribers{*this, security, superseder.rules(), events};
  // Datagrams opened, decoded, unbundled, handed to dispatch_datagram, metered (receiver/receiver.h).
  Receiver receiver{*this, ReceiverSources{security, naming, limits, peers, links, frame_sizes, subscribers,
                                           [this](wire::Decoded& d, std::size_t size, Micros now) {
                                             dispatch_datagram(d, size, now);
                                           }}};
  Beacons beacons{*this, BeaconSources{peers, links, reception, own, naming, ended_claims.streams(), forwarding, replication,
                                       relay_watch, interests, subscribers.subscriptions(), radio_model, two_hop}};

 private:
  // node.cpp: this round's MFR, gated by the traffic heard (request_rounds.h)
  void run_request_round(Micros now);
  // node.cpp: the timers that build datagrams for the air, when due.
  void run_producers(Micros now);
  // node.cpp: sends a beacon now (beacons.h) or lets it wait for our first pass.
  void beacon_due(Micros now);
  // node.cpp
  void housekeeping(Micros now);
  // node.cpp: a write to find out whether a cache that could not write can now.
  void probe_cache(Micros now);
  // At construction: the cached messages, our streams' counters, durable
  // subscriptions, group references and ended streams, as the cache kept them.
  void restore_cache();
  // node_forwarding.cpp: rebroadcasts whose delay is over join the repair queue.
  void release_due_forwards(Micros now);
 public:
  // node_send.cpp: how to frame a data fragment of `source` (its publisher) in `group` now.
  wire::DataEncoding data_encoding(NodeId source, const std::string& group, Micros now);
  // node_receive.cpp: a decoded frame to its kind's handler (the receiver's dispatch).
  void dispatch_datagram(wire::Decoded& d, std::size_t size, Micros now);
  // Evicts down to the deletion controller's low watermark when over the quota.
  void enforce_quota(Micros now);
  // node.cpp: a CacheWriteFailed or CacheResumed event for each change of the cache outage.
  void report_cache_changes();
  // Shared by the data paths.
  void on_message_settled(const MessageId& id, bool complete, Micros now);
  // on_message_settled, for the parts that settle messages.
  MessageSettled settled_callback() {
    return [this](const MessageId& id, bool complete, Micros now) { on_message_settled(id, complete, now); };
  }
  // Whether this node requests missing data of `group`: a reliable local
  // subscription, or the forwarding controller relays the group for others.
  bool wants_group(const std::string& group) const;
  // Whether this node may ask for `group` aloud: a reliable subscription
  // that is not silent, or a relay's need (wants_group less silent subscriptions).
  bool asks_for_group(const std::string& group) const;
  // Groups this node wants pushed: subscribed or relayed among those it knows of.
  std::vector<std::string> wanted_groups() const;
  // A peer was heard for the first time, or again after going silent.
  void on_peer_appeared(NodeId peer, Micros now);
  // node_streams.cpp: a peer's summary (the replicator answers it); what
  // it holds in groups we want is fetched like any gap.
  void on_summary(const wire::Summary& summary, Micros now);
  void learn_stream(const StreamId& stream, std::uint64_t seq, std::uint32_t publisher_history, bool inclusive,
                    Micros now);
  // Re-derives the timers from the RTT, the peers and the data frames' size.
  void update_timing();
  bool traffic_below(double fraction, Micros now);
  // Drops every message whose expiry has come: cache, tracker, queues.
  void expire_due(Micros now);
  // False (counted in queue_drops) when the control queue is full.
  bool enqueue_control(std::vector<std::uint8_t> bytes, TrafficKind kind);
  // node_relay_watch.cpp: we sent a copy of `group` with `hops` (first pass
  // or rebroadcast): the next hops our beacon names for it should relay it.
  void note_named_relays(const std::string& group, std::uint32_t hops, Micros now);
  // Paces at this node's share of the channel (channel_share.h).
  // The pacer's rate: the channel share (or the configured rate) under the
  // rate adaptation's cap.
  void update_pacing(Micros now);
  // `peer`'s echo of our beacon stamped `stamp`, with the round
  // trip it gives when valid: timers and rate adaptation.
  // `delivered_bps`: the rate our traffic reached it at, as it reports.
  void on_echo(NodeId peer, std::uint64_t stamp, Micros held, std::optional<Micros> raw_rtt,
               std::optional<double> delivered_bps, Micros now);
  // node_links.cpp: link events for the neighbours as they are now.
  void evaluate_links(Micros now);
};

}  // namespace dissem::engine
