// Private state of engine::Node. One member per concept; the logic that
// combines them lives in node_*.cpp files split by data path:
//   node.cpp          construction, restart, API calls, timers, deadlines
//   node_receive.cpp  decoding and handling received datagrams
//   node_send.cpp     send queues, pacing and the per-datagram choice
//   node_requests.cpp request rounds (MFRs, byte ranges or block deficits)
//   node_serving.cpp  answering requests after their random delay
//   node_beacon.cpp   building beacons
//   node_coding.cpp   coded symbols: receiving, decoding, generating
//   node_integrity.cpp  digests checked, contradictions and forged own data refused
//   node_replication.cpp  anti-entropy summaries and pushes (replication controller)
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
#include "engine/block_traffic_memory.h"
#include "engine/channel_share.h"
#include "engine/rate_adaptation.h"
#include "engine/relay_watch.h"
#include "engine/coded_messages.h"
#include "engine/coded_streams.h"
#include "engine/interests.h"
#include "engine/leveled_queue.h"
#include "engine/link_quality.h"
#include "engine/link_watch.h"
#include "engine/manifest_chain.h"
#include "engine/message_tracker.h"
#include "engine/node.h"
#include "engine/group_naming.h"
#include "engine/peers.h"
#include "engine/priority_floor.h"
#include "core/random.h"
#include "engine/rate_limiter.h"
#include "engine/reception_meter.h"
#include "engine/redundancy_planner.h"
#include "engine/request_server.h"
#include "engine/serve_budget.h"
#include "engine/datagram_auth.h"
#include "engine/durable_subscriptions.h"
#include "engine/subscriptions.h"
#include "engine/ended_streams.h"
#include "engine/supersession.h"
#include "engine/timing.h"
#include "engine/traffic_memory.h"
#include "engine/traffic_meter.h"
#include "wire/codec.h"

namespace dissem::engine {

// The cache's key for a group's durable publication counter (node.cpp).
std::string seq_state_key(const std::string& group);

inline std::uint32_t block_symbols_of(std::uint32_t field) { return field == 0 ? wire::kDefaultBlockSymbols : field; }

// Where a fragment held for the first time came from.
struct ArrivedFrom {
  std::uint32_t hops = 0;
  NodeId transmitter = 0;  // 0: unknown (a repair)
  bool repair = false;
  bool decoded = false;    // recovered from coded symbols, not received
  std::uint32_t block_symbols = 0;  // the fragment's block_symbols field
};

// Coded symbols of one block waiting for the pacer: a repair answering a
// deficit, or a publisher's proactive redundancy.
struct CodedTask {
  MessageId message;
  std::uint32_t block = 0;
  coding::BlockLayout layout;
  // Symbols of the block heard on the air after `since` count against
  // `needed`; none is sent once they cover it.
  Micros since = 0;
  std::uint32_t needed = 0;
  std::uint32_t remaining = 0;  // symbols this node may still send
  bool repair = true;
  std::vector<std::uint8_t> skip;  // sources every requester holds: left out of recoded symbols
};

// Window symbols answering window requests (WindowNeed) for a stream: due
// after a random delay, then sent one at a time until the symbols heard on
// the air since the request cover the largest deficit asked.
struct WindowTask {
  StreamId stream;
  std::uint64_t first = 0;
  std::uint32_t count = 0;
  Micros since = 0;
  std::uint32_t needed = 0;
  std::uint32_t remaining = 0;
  Micros due = 0;
};

// The block traffic memory's key for a stream's window symbols (seq 0 names no message).
MessageId window_key(const StreamId& stream);

// Why a fragment waits in the repair queue.
enum class FragmentOrigin : std::uint8_t {
  Repair,   // an answer to an MFR
  Forward,  // a rebroadcast chosen by the forwarding controller
  Push,     // replication: a peer's summary showed it lacks the message
};

// A fragment waiting in the repair queue.
struct QueuedFragment {
  FragmentKey key;
  std::uint32_t hops = 0;
  FragmentOrigin origin = FragmentOrigin::Repair;
  // Redundant if the NTM saw the fragment on the air after this moment: for a
  // repair, the arrival of the request (anything sent before it, the
  // requester evidently missed); for a rebroadcast, when we heard it; for a
  // push, the arrival of the summary.
  Micros since = 0;
  std::uint32_t length = 0;  // payload bytes, when known (pushes: for the budget)
  // A rebroadcast its controller wants sent even if a copy is heard meanwhile.
  bool keep_when_heard = false;
};

// Messages to push in answer to a summary, due after a random delay (as
// answers to requests are, so one of several nodes hearing it goes first).
struct PushTask {
  MessageId message;
  Micros since = 0;
};

class NodeImpl;

// The engine's side of controllers::NodeView.
class ControllerView final : public controllers::NodeView {
 public:
  explicit ControllerView(const NodeImpl& node) : node_(node) {}
  NodeId self() const override;
  Micros packet_time() const override;
  Micros serve_delay_max() const override;
  bool subscribed(const std::string& group) const override;
  std::span<const controllers::PeerInterest> interest(const std::string& group) const override;

 private:
  const NodeImpl& node_;
};

// Own publication being sent for the first time, one fragment per pacing slot.
struct PublicationCursor {
  MessageId id;
  std::uint32_t next_offset = 0;
  // The payload while its first pass lasts, so each fragment is not read back
  // from the cache; empty (read from the cache) when over the memory budget.
  std::shared_ptr<const std::vector<std::uint8_t>> payload;
  std::uint32_t parity_left = 0;  // proactive coded symbols still due for the block just sent
  std::uint32_t parity_block = 0;
  std::uint32_t length = 0;       // bytes it counts against the send budgets
};

class NodeImpl {
 public:
  NodeImpl(const EngineConfig& config, std::unique_ptr<cache::Store> store, Micros now);

  // node_publish.cpp
  MessageId publish(const PublishRequest& request, Micros now);
  MessageId cancel(const CancelRequest& request, Micros now);
  // Numbers, stores, queues and applies a message whose meta has all but
  // id, length and digest set.
  MessageId publish_message(const std::string& group, MessageMeta meta, const std::vector<std::uint8_t>& payload,
                            Micros now);
  // A publication leaves the queue (sent, evicted, superseded): its bytes are released.
  void release_publication(const PublicationCursor& cur);
  // Throws QueueFull if `bytes` more of `group` would exceed a send budget.
  void check_send_budget(const std::string& group, std::uint64_t bytes) const;
  // node_supersession.cpp
  // Learns what a message about to be taken supersedes (applied at once),
  // and whether the message itself is superseded (then ended, not taken).
  bool screen_supersession(const MessageMeta& meta, Micros now);
  // Ends what `by` supersedes among what this node tracks, caches and queues.
  void apply_supersession(const MessageMeta& by, Micros now);
  // Ends `id` if it is superseded: out of the cache and the tracker. True if it is.
  bool end_if_superseded(const MessageId& id, Micros now);
  // Known superseded (by number; a message ended by its tag is recorded so too).
  bool superseded_here(const MessageId& id) const;
  // node.cpp
  SubscriptionId subscribe(const std::string& group, const SubscriptionOptions& options, Micros now);
  void unsubscribe(SubscriptionId id);
  // node_durable.cpp
  SubscriptionId subscribe_durable(const std::string& group, const SubscriptionOptions& options, Micros now);
  void acknowledge(SubscriptionId id, const MessageId& message);
  bool delete_subscription(const std::string& name);
  // Restart: the durable subscriptions kept in the cache run again, detached.
  void restore_durable();
  void request_history(const std::string& group, std::uint32_t count, Micros now);
  // node_cache_queries.cpp
  std::optional<Delivery> get(const MessageId& id, Micros now);
  std::vector<CachedMessage> list(const ListRequest& request);
  void on_timer(Micros now);
  Micros next_deadline() const;

  // node_receive.cpp
  void on_datagram(std::span<const std::uint8_t> bytes, Micros now);
  // A burst of datagrams read together: handled in order, as one by one,
  // with the signatures of keyed groups checked newest first (the chain
  // vouches for the rest of the burst).
  void on_datagrams(std::span<const std::span<const std::uint8_t>> batch, Micros now);
  // A fragment this node may not hold yet (received, or recovered by
  // decoding): tracked, cached, offered to the forwarding controller.
  FragmentOutcome accept_fragment(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                                  bool subscribed, const ArrivedFrom& from, Micros now);

  // node_coding.cpp
  void on_coded_symbol(const wire::CodedSymbol& c, std::size_t size, Micros now);
  // A new source fragment of an incomplete message: into its block's decoder, if one is open.
  void feed_decoder(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                    std::uint32_t block_symbols, bool subscribed, Micros now);
  // The stride of a message as a fragment of it, or its known layout, tells (0: unknown).
  std::uint32_t stride_of(const MessageId& id, std::uint32_t total, std::uint32_t offset, std::uint32_t length) const;
  coding::BlockLayout own_layout(std::uint32_t total) const;
  // Whether every source symbol of `block` is held here.
  bool holds_block(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block) const;
  // A fresh coded symbol of `block`: from the whole block when held, else
  // recoded from what its decoder holds; nullopt when neither is possible.
  std::optional<std::vector<std::uint8_t>> encode_symbol(const MessageId& id, const coding::BlockLayout& layout,
                                                         std::uint32_t block, bool repair,
                                                         std::span<const std::uint8_t> skip = {});
  // The coded request entries for a message missing `missing` (empty: ask by ranges).
  // nullopt: ask by ranges (layout unknown); empty: no block is due yet.
  std::optional<std::vector<wire::BlockNeed>> block_needs(const MessageId& id, const MessageState& st,
                                                          const MissingRanges& missing, Micros now);

  // node_windows.cpp: window coding across small messages of a stream.
  bool window_coding() const;
  // The window image of a small message held complete here (cached), or nullptr.
  const std::vector<std::uint8_t>* image_of(const MessageId& id, Micros now);
  void on_window_symbol(const wire::WindowSymbol& w, std::size_t size, Micros now);
  // A message completed here: eliminated from its stream's window equations.
  void on_window_source(const MessageMeta& meta, Micros now);
  // A fresh window symbol over [first, first + count) of `stream`, the
  // messages not held here excluded; nullopt when none is held.
  std::optional<std::vector<std::uint8_t>> encode_window_symbol(const StreamId& stream, std::uint64_t first,
                                                                std::uint32_t count, bool repair, Micros now);
  // The publisher's proactive window symbol ending at its message `last`.
  std::optional<std::vector<std::uint8_t>> proactive_window_symbol(const MessageId& last, Micros now);
  void on_window_request(const StreamId& stream, const wire::WindowNeed& need, Micros now);
  void release_due_windows(Micros now);
  std::optional<Micros> next_window_due() const;
  std::optional<std::vector<std::uint8_t>> next_window_repair(std::uint32_t level, Micros now);
  // node_requests.cpp: whether a missing message is asked for by window, not whole.
  bool window_member(const MessageId& id, const MessageState& st) const;
  // The window requests of this round (lost small messages of each stream),
  // each member backed off; at most `max_bytes` encoded.
  std::vector<wire::PublisherWants> window_requests(std::size_t max_bytes, Micros now);

  // node_bundling.cpp: the next datagram the pacer allows: one frame, or
  // several bundled (engine.bundle_delay_ms), sealed.
  std::optional<OutgoingDatagram> poll_datagram(Micros now);
  // When a bundle being filled must go even without more company.
  std::optional<Micros> bundle_due() const;
  // node_send.cpp: the next frame to send, unsealed (nullopt: nothing queued).
  std::optional<OutgoingDatagram> next_frame(Micros now);
  // The priority of a message this node tracks (0 if unknown).
  std::uint32_t priority_of(const MessageId& id) const;
  // The next datagram of priority level `level` (nullopt: an item was dropped instead).
  std::optional<OutgoingDatagram> send_at_level(std::uint32_t level, Micros now);

  // node_integrity.cpp
  // Whether the message, all of whose bytes are held, matches its digest
  // (then recorded in the cache).
  bool verify_message(const MessageId& id);
  // The digest of a message held whole in the cache (0 if it is not).
  std::uint64_t cached_digest(const MessageId& id);
  // Drops everything held of a message that cannot be trusted; it is fetched again.
  void distrust_message(const MessageId& id, IntegrityEvent why, Micros now);
  // A fragment or symbol contradicted what is known of its message.
  void on_conflict(const MessageId& id, FragmentOutcome outcome, Micros now);
  // Data under this node's own id: never taken from the air. Always true
  // for such data (counted as a duplicate or as forged); false otherwise.
  bool refuse_own_id(const MessageMeta& meta, Micros now);
  void raise_alarm(Event::Kind kind, const MessageId& id, Micros now);
  // node.cpp: the newest sequence number this node ever published in `group`.
  std::uint64_t published_up_to(const std::string& group) const;

  EngineConfig config;
  std::unique_ptr<cache::Store> store;
  Random rng;
  wire::Limits limits;
  wire::Decoded decoded;  // reused decode target
  wire::Decoded bundle_item;  // ... and for the items of a bundle
  Stats stats;
  GroupNaming naming;  // short group references: learnt, our own, and when to name in full

  MessageTracker tracker;
  Subscriptions subscriptions;
  DurableSubscriptions durable;
  PeerTable peers;
  TrafficMemory ntm;
  TrafficMeter meter;  // datagrams from others: the MFR gate; with framing, the channel occupancy they cause
  TrafficMeter first_pass_meter;  // of which others' first passes (publications and their parity), framing included
  ChannelShare channel;
  RateAdaptation adaptation;  // a cap on the pace from queueing delay (rate_adaptation.h)
  Pacer pacer;
  PrioritySplit split;  // publications against repairs, within one priority level
  PriorityFloor floor;  // lower levels' share while a higher one saturates
  RequestServer server;
  ServeBudget serve_budget;
  // Authenticated groups (node_security.cpp).
  ReplayGuard replay;
  std::uint64_t auth_counter = 0;  // the counter of our last sealed datagram
  NodeId sealer = 0;               // who sealed the datagram being handled (0: open network)
  // Manifests known authentic (engine/manifest_chain.h), and per keyed
  // group our last signed message (seq, link): the next one links to it.
  ManifestChain chain{kChainMemory};
  std::unordered_map<std::string, std::pair<std::uint64_t, ChainLink>> publish_links;
  // Manifests whose signature failed during the batch being handled: each
  // is checked (and counted) once however many of its datagrams the batch has.
  std::vector<std::pair<MessageId, ChainLink>> batch_forged;
  std::vector<MessageId> batch_checked;  // ... and those whose signature was checked ahead of it
  static constexpr std::size_t kChainMemory = 8192;
  static constexpr std::size_t kMaxBatchForged = 64;
  // One datagram of a batch (on_datagrams), opened and decoded.
  struct BatchItem {
    wire::Decoded decoded;
    NodeId sealer = 0;
    std::size_t size = 0;
    bool usable = false;
  };
  std::vector<BatchItem> batch_items;  // reused across batches
  // While a batch of datagrams is handled, deliveries wait for its end: one
  // commit makes the whole batch's messages durable before any is handed
  // on, instead of one commit per completed message.
  bool holding_deliveries = false;
  std::vector<DeliveryOrder> held_deliveries;
  Timing timing;
  CodedMessages coded;
  CodedStreams coded_streams;
  BlockTrafficMemory block_memory;
  ReceptionMeter reception;
  RedundancyPlanner redundancy;
  LinkQuality links;     // per neighbour, for applications (node_links.cpp)
  LinkWatch link_watch;  // engine.link_* thresholds: Event::Kind::LinkChanged

  std::unique_ptr<controllers::ForwardingController> forwarding;
  std::unique_ptr<controllers::ReplicationController> replication;
  std::unique_ptr<controllers::DeletionController> deletion;
  ControllerView view{*this};
  InterestTable interests;  // filled only when forwarding->interest_radius() > 0
  // Our last beacon's interest entries that name a next hop, and the
  // watchdog on those next hops (forwarding that names relays only).
  std::vector<AdvertisedInterest> named_in_beacon;
  RelayWatch relay_watch;

  std::deque<OutgoingDatagram> control_queue;  // MFRs and beacons: small, first
  // Bundling: frames gathered for the next datagram (since `bundle_since`),
  // and a frame taken that did not fit it (it starts the next one).
  std::vector<OutgoingDatagram> bundle;
  std::size_t bundle_bytes = 0;
  wire::DataContext bundle_context;  // data frames lean on the one before (wire/data_frame.h)
  Micros bundle_since = 0;
  std::optional<OutgoingDatagram> bundle_carry;
  // The send queues, by message priority (leveled_queue.h): publications,
  // and the repair side (fragments, coded symbols, window symbols), each
  // item at the priority of its message.
  LeveledQueue<PublicationCursor> publish_queue;
  LeveledQueue<QueuedFragment> repair_queue;
  std::unordered_set<FragmentKey, FragmentKeyHash> repair_queued;
  std::multimap<Micros, QueuedFragment> forward_pending;
  LeveledQueue<CodedTask> coded_queue;  // shares the repair side of the priority split
  // Source symbols of the blocks most recently coded from (read from the
  // cache once per block, not once per symbol), newest last.
  struct BlockRows {
    MessageId message;
    std::uint32_t block = 0;
    std::vector<std::vector<std::uint8_t>> rows;
  };
  std::deque<BlockRows> block_rows;
  // Window images of recently coded messages (read from the cache once).
  std::unordered_map<MessageId, std::vector<std::uint8_t>, MessageIdHash> window_images;
  std::deque<MessageId> window_image_order;
  // Per group, the last messages our two latest proactive window symbols ended at.
  std::unordered_map<std::string, std::array<std::uint64_t, 2>> proactive_marks;
  std::vector<WindowTask> window_pending;  // waiting for their delay
  LeveledQueue<WindowTask> window_queue;   // shares the repair side with coded_queue

  // Replication: our next summary (one pending at a time: contacts falling
  // due together share it), pushes waiting for their delay, and fragments
  // waiting for the push budget (a token bucket of bytes).
  std::optional<Micros> summary_due;
  bool summary_reply = false;
  std::multimap<Micros, PushTask> push_pending;
  std::deque<QueuedFragment> push_queue;
  double push_tokens = 0;
  Micros push_tokens_at = 0;

  std::deque<Delivery> deliveries;
  std::deque<Event> events;

  Supersession superseded;
  EndedStreams ended{config.max_streams};  // what has ended below a watermark, ours and heard (ended_streams.h)
  OwnTags own_tags;  // our recent (seq, tag) per group: what a replace names

  std::unordered_map<std::string, std::uint64_t> last_published_seq;
  // Newest own message whose first pass is complete, per group: what our
  // beacons advertise, so receivers never ask for what we have not sent yet.
  std::unordered_map<std::string, std::uint64_t> last_sent_seq;
  // Messages that expire, by expiry (Unix ms): each is dropped at its
  // moment (stale entries, of messages already gone, are skipped).
  std::set<std::pair<std::uint64_t, MessageId>> expiries;
  Micros last_alarm = 0;            // last integrity event raised to applications
  std::uint64_t publish_queue_bytes = 0;  // payload bytes held by publication cursors
  // Flow control (node_publish.cpp): bytes of publications queued, overall
  // and per group, against engine.send_budget_ms / group_send_budget_ms.
  std::uint64_t queued_bytes = 0;
  std::unordered_map<std::string, std::uint64_t> queued_group_bytes;

  Micros next_request_round = 0;
  Micros request_spacing_until = 0;  // the last MFR's share of the control budget (link_timers.h)
  Micros next_beacon = 0;
  Micros next_housekeeping = 0;
  std::size_t beacon_rotation = 0;
  std::uint32_t beacons_sent = 0;
  // Beacon pacing on slow links (node_beacon.cpp): when the last one went,
  // what it said (its content without timestamps and echoes), and how many
  // in a row said nothing new.
  Micros last_beacon_at = 0;
  std::size_t last_beacon_content = 0;
  std::uint32_t quiet_beacons = 0;

 private:
  // node.cpp
  void run_request_round(Micros now);
  void serve_due_requests(Micros now);
  // node_beacon.cpp: sends a beacon now or defers it; schedules the next.
  void beacon_due(Micros now);
  // Builds and queues one; returns its size and a hash of what it says.
  std::pair<std::size_t, std::size_t> send_beacon(Micros now);
  void housekeeping(Micros now);
  void release_due_forwards(Micros now);
  // Our own first pass has yet to send (all of) `block` of `id`.
  bool first_pass_pending(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block) const;
  void queue_fragment_repairs(const ServeTask& task, std::vector<std::uint32_t> offsets, Micros now);
  void serve_block(const ServeTask& task, const MessageState& st, std::uint32_t block, const BlockAsk& ask,
                   Micros now);
  // node_coding.cpp
  const std::vector<std::vector<std::uint8_t>>* block_sources(const MessageId& id, const coding::BlockLayout& layout,
                                                              std::uint32_t block);
  void finish_block(const MessageMeta& meta, std::uint32_t block, bool subscribed, Micros now);
  // node_windows.cpp: solves what the stream's window equations determine.
  void solve_window(const StreamId& stream, Micros now);
 public:
  // The decoder of `block`, opened (with the fragments held) if need be; the
  // layout must be learnt. nullptr over the memory budget.
  coding::BlockDecoder* open_decoder(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block);
  // node_serving.cpp: a coded request for `m`'s blocks.
  void on_block_request(const MessageId& id, const wire::MessageWants& m, Micros now);
  // Trims `r` to what its requester's serving budget covers (node_request_budget.cpp).
  void budget_request(wire::MissingFragmentRequest& r, Micros now);
  // Cuts a plain item to the held fragments `allowed` covers; returns their cost.
  std::uint64_t trim_plain(const MessageId& id, const MessageState& st, wire::MessageWants& m, std::uint64_t allowed);
  // The part of a deficit of symbols `allowed` covers (spent from it).
  std::uint32_t trim_deficit(std::uint32_t deficit, std::uint32_t symbol_size, std::uint64_t& allowed);
  // --- authenticated groups (node_security.cpp) ---
  // Appends the network-key trailer (nothing in an open network).
  void seal_outgoing(std::vector<std::uint8_t>& datagram, Micros now);
  // The frame of a datagram whose trailer verifies and is not a replay (the
  // whole datagram in an open network); nothing, counted, otherwise.
  std::optional<std::span<const std::uint8_t>> open_incoming(std::span<const std::uint8_t> datagram);
  // A control datagram naming `claimed` as its sender was sealed by it.
  bool sealed_by(NodeId claimed);
  // Data of a keyed group carries a valid signature of its manifest (checked
  // once per message); always true in open groups. Counted when false.
  bool authentic(const MessageMeta& meta);
  // Publication in a keyed group: seals the payload (if the group has a seal
  // key) and signs the manifest; throws PublishError without a signing key.
  void sign_and_seal(MessageMeta& meta, std::vector<std::uint8_t>& payload, Micros now);
  // What an application is given of a stored message: opened if its group is
  // sealed (nothing, counted, if it does not open).
  std::optional<std::vector<std::uint8_t>> readable(const MessageId& id, std::vector<std::uint8_t> stored);
  // Handles a datagram opened (sealer set) and decoded into `d`: its kind's
  // handler, then the traffic meters.
  void handle_decoded(wire::Decoded& d, std::size_t size, Micros now);
  // node_receive.cpp: a beacon says every message of `stream` below `end` has ended.
  void on_ended_below(const StreamId& stream, std::uint64_t end, Micros now);
  // wire::decode with our group references; learns the ones a data frame announces.
  std::optional<DecodeError> decode_frame(std::span<const std::uint8_t> bytes, wire::Decoded& out,
                                          wire::DataContext* context);
  // How to frame a data fragment of `publisher` in `group` now.
  wire::DataEncoding data_encoding(NodeId publisher, const std::string& group, Micros now);
  void dispatch_datagram(wire::Decoded& d, std::size_t size, Micros now);
  // The manifest is authentic: vouched for by the chain, or its signature
  // verifies under `key`. Failures are not counted here (the caller does),
  // only remembered for the batch; `ahead`: the check before a batch.
  bool check_signature(const MessageMeta& meta, const VerifyKey& key, bool ahead);
  // Before a batch is handled: checks the signatures its data will need,
  // newest message of each stream first, so the chain vouches for the rest.
  void authenticate_ahead(std::span<BatchItem> items, Micros now);
  void handle_sealed_batch(std::span<const std::span<const std::uint8_t>> batch, Micros now);
 private:
  // node_replication.cpp
  void send_summary(Micros now);
  void start_due_pushes(Micros now);
  void release_pushes(Micros now);

 public:
  // Evicts down to the deletion controller's low watermark when over the quota.
  void enforce_quota(Micros now);
  // Shared by the data paths.
  void on_message_settled(const MessageId& id, bool complete, Micros now);
  void emit_deliveries(const std::vector<DeliveryOrder>& orders, Micros now);
  // Whether this node requests missing data of `group`: a reliable local
  // subscription, or the forwarding controller relays the group for others.
  bool wants_group(const std::string& group) const;
  // Groups this node wants pushed: subscribed or relayed among those it knows of.
  std::vector<std::string> wanted_groups() const;
  // A peer was heard for the first time, or again after going silent.
  void on_peer_appeared(NodeId peer, Micros now);
  void schedule_summary(Micros due, bool reply);
  // node_replication.cpp
  void on_summary(const wire::Summary& summary, Micros now);
  // When the next push fragment fits the budget (only with a push queue).
  Micros next_push_time() const;
  void learn_stream(const StreamId& stream, std::uint64_t seq, std::uint32_t publisher_history, bool inclusive,
                    Micros now);
  void update_rtt();
  bool traffic_below(double fraction, Micros now);
  void note_expiry(const MessageMeta& meta);
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
