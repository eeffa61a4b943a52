// Counters the engine keeps; hosts expose them (IPC stats, simulator report).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "wire/decode_error.h"

namespace dissem::engine {

// Categories of traffic on the air, as the paper's byte counts break them down,
// plus what multi-hop dissemination adds: fragments rebroadcast by a
// forwarding controller (kept apart from repairs, which answer requests) and
// anti-entropy summaries. Replication pushes answer a summary and travel as
// repairs (the wire does not tell them apart); Stats counts them separately.
enum class TrafficKind : std::uint8_t { Data = 0, Repair = 1, Request = 2, Beacon = 3, Forward = 4, Summary = 5 };
constexpr std::size_t kTrafficKinds = 6;

constexpr std::string_view traffic_kind_name(TrafficKind k) {
  constexpr std::string_view names[] = {"data", "repair", "mfr", "beacon", "forward", "summary"};
  return names[static_cast<std::size_t>(k)];
}

// Why a received datagram was dropped before it reached protocol logic: the
// decoder's verdicts (wire/decode_error.h), counted per kind in Stats.
using wire::DecodeError;
using wire::decode_error_name;
using wire::kDecodeErrors;

// Why data that decoded well was still refused or thrown away: the
// integrity checks of the receive path (integrity.h).
enum class IntegrityEvent : std::uint8_t {
  LengthConflict = 0,  // a fragment or symbol gives a message another length than the one known
  DigestConflict,      // ... another digest
  VerifyFailed,        // a whole message did not match its digest: its data dropped, fetched again
  ConflictReset,       // an unverified partial message contradicted more than supported: dropped, fetched again
  OwnId,               // data under this node's id that it never published
  // Authenticated groups (engine/security/security_config.h):
  Unauthenticated,     // a datagram without a valid network-key tag (no tag, bad tag, unknown epoch)
  Replayed,            // a sealed datagram whose counter was already heard from its sender
  SenderMismatch,      // a sealed control datagram naming another node than its sealer
  Unsigned,            // data of a keyed group without a signature, or under an unknown key epoch
  BadSignature,        // data of a keyed group whose manifest signature does not verify
  Undecryptable,       // a sealed payload this node holds the group's key for did not open
  Revoked,             // sealed or signed under a revoked epoch, or from a revoked publisher (security_config.h)
};
constexpr std::size_t kIntegrityEvents = 12;

constexpr std::string_view integrity_event_name(IntegrityEvent e) {
  constexpr std::string_view names[] = {"length_conflict", "digest_conflict", "verify_failed", "conflict_reset",
                                        "own_id",          "unauthenticated", "replayed",      "sender_mismatch",
                                        "unsigned",        "bad_signature",   "undecryptable",   "revoked"};
  return names[static_cast<std::size_t>(e)];
}

struct TrafficCounter {
  std::uint64_t datagrams = 0;
  std::uint64_t bytes = 0;
  void add(std::size_t n) {
    ++datagrams;
    bytes += n;
  }
};

struct Stats {
  std::array<TrafficCounter, kTrafficKinds> sent{};
  std::array<TrafficCounter, kTrafficKinds> received{};
  std::array<std::uint64_t, kDecodeErrors> malformed{};
  std::uint64_t own_datagrams_ignored = 0;  // our own broadcasts looped back
  std::array<std::uint64_t, kIntegrityEvents> integrity{};
  // Keyed groups: manifests checked on their Ed25519 signature, and those
  // vouched for by an authentic successor instead (engine/security/manifest_chain.h).
  std::uint64_t signatures_checked = 0;
  std::uint64_t signatures_vouched = 0;

  std::uint64_t messages_published = 0;
  std::uint64_t messages_completed = 0;   // reassembled (any group held)
  std::uint64_t deliveries = 0;
  std::uint64_t duplicate_fragments = 0;  // fragments we already held

  std::uint64_t mfrs_sent = 0;
  std::uint64_t mfr_items_sent = 0;       // message entries listed in our MFRs
  std::uint64_t mfr_rounds_gated = 0;     // rounds skipped: incoming traffic too high
  std::uint64_t mfrs_received = 0;
  std::uint64_t repairs_queued = 0;       // fragments we decided to send as repairs
  std::uint64_t repairs_suppressed_ntm = 0;  // not sent: the NTM saw them recently
  // Request items the serving budget cut (engine/serve_budget.h), and the
  // repair bytes they asked for beyond it.
  std::uint64_t requests_trimmed = 0;
  std::uint64_t request_bytes_trimmed = 0;
  std::uint64_t queue_drops = 0;          // datagrams dropped: send queue full
  // Rate adaptation (rate_adaptation.h): times a standing queue toward a
  // neighbour lowered our pace.
  std::uint64_t rate_decreases = 0;
  // Subscriber-tree forwarding (relay_watch.h): times a neighbour our beacons
  // named as a next hop was heard relaying nothing and was no longer named.
  std::uint64_t relays_avoided = 0;
  // Radio silence (EMCON): whether the node is silent now, and the requests
  // of others it heard and left unanswered while it was.
  bool silent = false;
  std::uint64_t requests_ignored_silent = 0;
  // The cache could not write (a full disk: engine/cache_outage.h): writes
  // refused, fragments dropped for it, and whether the node is paused now.
  std::uint64_t cache_write_failures = 0;
  std::uint64_t fragments_unstored = 0;
  bool cache_paused = false;
  // The host's system clock stepped (wall_clock.h): steps seen, and the
  // system clock minus the node's wall time still being slewed away.
  std::uint64_t clock_steps = 0;
  Micros clock_divergence = 0;

  std::uint64_t messages_evicted = 0;
  std::uint64_t messages_expired = 0;
  // Messages held here (whole or in part) and dropped because a newer one
  // replaced or cancelled them (engine/ending/supersession.h; data of ended
  // messages arriving later is refused uncounted); and tag rules refused
  // because a stream had too many.
  std::uint64_t messages_superseded = 0;
  // Messages of other publishers carried into this node's network from
  // another (Node::carry), and those that never went out: refused because
  // they would expire before this link could send them, dropped at their
  // turn when they could no longer arrive in time, or expired while they
  // waited behind fresher ones.
  std::uint64_t messages_carried = 0;
  std::uint64_t carry_too_late = 0;
  std::uint64_t publish_queue_full = 0;  // publications refused: a send budget was full
  std::uint64_t supersession_refused = 0;
  // Messages known only from hearsay (message_tracker.h): forgotten after
  // their lifetime, displaced by data, or refused (tracker or streams full).
  std::uint64_t hearsay_expired = 0;
  std::uint64_t hearsay_displaced = 0;
  std::uint64_t hearsay_refused = 0;
  std::uint64_t peers_refused = 0;  // new neighbours not tracked: engine.max_peers reached
  // Claims that another's stream ended below a number (ending/ended_streams.h):
  // refused (another node's claim past what the publisher itself said),
  // taken back (the publisher contradicted one we had followed); fragments
  // refused because such a claim stands (Event::Kind::DataRefusedAsEnded
  // names its author); claims that our own stream ended, made by another
  // node (Event::Kind::EndedClaimContested); and our own sequence counter
  // moved past numbers a forger used under our id.
  std::uint64_t ended_claims_refused = 0;
  std::uint64_t ended_claims_contradicted = 0;
  std::uint64_t fragments_refused_ended = 0;
  std::uint64_t own_ended_claims_contested = 0;
  std::uint64_t own_seq_skipped = 0;

  // Forwarding controller: rebroadcasts scheduled, and those dropped because
  // the fragment was heard again on the air before our turn came.
  std::uint64_t forwards_queued = 0;
  std::uint64_t forwards_suppressed_ntm = 0;
  // Replication controller (anti-entropy).
  std::uint64_t summaries_sent = 0;
  std::uint64_t summaries_received = 0;
  std::uint64_t pushes_queued = 0;          // fragments chosen to push to a peer that lacks them
  std::uint64_t pushes_sent = 0;
  std::uint64_t pushes_suppressed_ntm = 0;  // not sent: already on the air since the summary

  // Erasure coding.
  std::uint64_t coded_received = 0;        // coded symbols heard
  std::uint64_t coded_innovative = 0;      // ... that raised a block's rank
  std::uint64_t coded_redundant = 0;       // ... for blocks held, or implied by what was held
  std::uint64_t coded_ignored = 0;         // ... dropped: coding is off here
  std::uint64_t coded_dropped_memory = 0;  // ... dropped: no decoder memory left
  std::uint64_t blocks_decoded = 0;
  std::uint64_t fragments_decoded = 0;     // fragments recovered from coded symbols
  std::uint64_t coded_generated = 0;       // symbols made from a whole block (repairs and parity)
  std::uint64_t coded_recoded = 0;         // symbols recombined from a partial block
  std::uint64_t parity_sent = 0;
  // Bundling (several frames in one datagram): bundles sent and the items
  // they carried (each item is also counted in `sent` by its kind), and
  // bundles received.
  std::uint64_t bundles_sent = 0;
  std::uint64_t bundled_items = 0;
  std::uint64_t bundles_received = 0;
  // Short group references (wire/group_refs.h): a publisher's ref heard
  // under another name than before (it lost its node state).
  std::uint64_t group_refs_changed = 0;

  std::uint64_t integrity_total() const {
    std::uint64_t t = 0;
    for (auto v : integrity) t += v;
    return t;
  }
  std::uint64_t malformed_total() const {
    std::uint64_t t = 0;
    for (auto v : malformed) t += v;
    return t;
  }
};

}  // namespace dissem::engine
