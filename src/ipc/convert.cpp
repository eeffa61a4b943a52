#include "ipc/convert.h"

#include <algorithm>
#include <stdexcept>

namespace dissem::ipc {

namespace {

void to_proto(const engine::TrafficCounter& in, TrafficCounter& out) {
  out.set_datagrams(in.datagrams);
  out.set_bytes(in.bytes);
}

engine::TrafficCounter from_proto(const TrafficCounter& in) { return {in.datagrams(), in.bytes()}; }

constexpr std::size_t kind_index(engine::TrafficKind k) { return static_cast<std::size_t>(k); }

void to_proto(const std::array<engine::TrafficCounter, engine::kTrafficKinds>& in, TrafficByKind& out) {
  to_proto(in[kind_index(engine::TrafficKind::Data)], *out.mutable_data());
  to_proto(in[kind_index(engine::TrafficKind::Repair)], *out.mutable_repair());
  to_proto(in[kind_index(engine::TrafficKind::Request)], *out.mutable_mfr());
  to_proto(in[kind_index(engine::TrafficKind::Beacon)], *out.mutable_beacon());
  to_proto(in[kind_index(engine::TrafficKind::Forward)], *out.mutable_forward());
  to_proto(in[kind_index(engine::TrafficKind::Summary)], *out.mutable_summary());
}

std::array<engine::TrafficCounter, engine::kTrafficKinds> from_proto(const TrafficByKind& in) {
  std::array<engine::TrafficCounter, engine::kTrafficKinds> out{};
  out[kind_index(engine::TrafficKind::Data)] = from_proto(in.data());
  out[kind_index(engine::TrafficKind::Repair)] = from_proto(in.repair());
  out[kind_index(engine::TrafficKind::Request)] = from_proto(in.mfr());
  out[kind_index(engine::TrafficKind::Beacon)] = from_proto(in.beacon());
  out[kind_index(engine::TrafficKind::Forward)] = from_proto(in.forward());
  out[kind_index(engine::TrafficKind::Summary)] = from_proto(in.summary());
  return out;
}

std::uint64_t millis_from(Micros t) { return static_cast<std::uint64_t>(std::max<Micros>(t, 0) / kMillis); }

}  // namespace

void to_proto(const StatsSnapshot& in, Stats& out) {
  const engine::Stats& s = in.engine;
  to_proto(s.sent, *out.mutable_sent());
  to_proto(s.received, *out.mutable_received());
  auto& malformed = *out.mutable_malformed();
  for (std::size_t i = 0; i < engine::kDecodeErrors; ++i) {
    malformed[std::string(engine::decode_error_name(static_cast<engine::DecodeError>(i)))] = s.malformed[i];
  }
  auto& integrity = *out.mutable_integrity();
  for (std::size_t i = 0; i < engine::kIntegrityEvents; ++i)
    integrity[std::string(engine::integrity_event_name(static_cast<engine::IntegrityEvent>(i)))] = s.integrity[i];
  out.set_own_datagrams_ignored(s.own_datagrams_ignored);
  out.set_messages_published(s.messages_published);
  out.set_messages_completed(s.messages_completed);
  out.set_deliveries(s.deliveries);
  out.set_duplicate_fragments(s.duplicate_fragments);
  out.set_mfrs_sent(s.mfrs_sent);
  out.set_mfr_items_sent(s.mfr_items_sent);
  out.set_mfr_rounds_gated(s.mfr_rounds_gated);
  out.set_mfrs_received(s.mfrs_received);
  out.set_repairs_queued(s.repairs_queued);
  out.set_repairs_suppressed_ntm(s.repairs_suppressed_ntm);
  out.set_queue_drops(s.queue_drops);
  out.set_messages_evicted(s.messages_evicted);
  out.set_messages_expired(s.messages_expired);
  out.set_hearsay_expired(s.hearsay_expired);
  out.set_hearsay_displaced(s.hearsay_displaced);
  out.set_hearsay_refused(s.hearsay_refused);
  out.set_peers_refused(s.peers_refused);
  out.set_signatures_checked(s.signatures_checked);
  out.set_signatures_vouched(s.signatures_vouched);
  out.set_messages_superseded(s.messages_superseded);
  out.set_messages_carried(s.messages_carried);
  out.set_carry_too_late(s.carry_too_late);
  out.set_publish_queue_full(s.publish_queue_full);
  out.set_rate_decreases(s.rate_decreases);
  out.set_relays_avoided(s.relays_avoided);
  out.set_silent(s.silent);
  out.set_requests_ignored_silent(s.requests_ignored_silent);
  out.set_cache_write_failures(s.cache_write_failures);
  out.set_fragments_unstored(s.fragments_unstored);
  out.set_cache_paused(s.cache_paused);
  out.set_clock_steps(s.clock_steps);
  out.set_clock_divergence_us(s.clock_divergence);
  out.set_ended_claims_refused(s.ended_claims_refused);
  out.set_ended_claims_contradicted(s.ended_claims_contradicted);
  out.set_fragments_refused_ended(s.fragments_refused_ended);
  out.set_own_ended_claims_contested(s.own_ended_claims_contested);
  out.set_own_seq_skipped(s.own_seq_skipped);
  out.set_supersession_refused(s.supersession_refused);
  out.set_bundles_sent(s.bundles_sent);
  out.set_bundled_items(s.bundled_items);
  out.set_bundles_received(s.bundles_received);
  out.set_group_refs_changed(s.group_refs_changed);
  out.set_requests_trimmed(s.requests_trimmed);
  out.set_request_bytes_trimmed(s.request_bytes_trimmed);
  out.set_forwards_queued(s.forwards_queued);
  out.set_forwards_suppressed_ntm(s.forwards_suppressed_ntm);
  out.set_summaries_sent(s.summaries_sent);
  out.set_summaries_received(s.summaries_received);
  out.set_pushes_queued(s.pushes_queued);
  out.set_pushes_sent(s.pushes_sent);
  out.set_pushes_suppressed_ntm(s.pushes_suppressed_ntm);
  out.mutable_coding()->set_received(s.coded_received);
  out.mutable_coding()->set_innovative(s.coded_innovative);
  out.mutable_coding()->set_redundant(s.coded_redundant);
  out.mutable_coding()->set_ignored(s.coded_ignored);
  out.mutable_coding()->set_dropped_memory(s.coded_dropped_memory);
  out.mutable_coding()->set_blocks_decoded(s.blocks_decoded);
  out.mutable_coding()->set_fragments_decoded(s.fragments_decoded);
  out.mutable_coding()->set_generated(s.coded_generated);
  out.mutable_coding()->set_recoded(s.coded_recoded);
  out.mutable_coding()->set_parity_sent(s.parity_sent);
  out.set_cache_bytes(in.cache_bytes);
  out.set_rss_bytes(in.rss_bytes);
  out.set_peak_rss_bytes(in.peak_rss_bytes);
  out.set_cache_messages(in.cache_messages);
  for (const auto& l : in.links) to_proto(snapshot_of(l), (*out.mutable_links())[l.name]);
}

StatsSnapshot from_proto(const Stats& in) {
  StatsSnapshot out;
  engine::Stats& s = out.engine;
  s.sent = from_proto(in.sent());
  s.received = from_proto(in.received());
  // Reasons this build does not know (a newer daemon) are left out rather
  // than guessed at.
  for (std::size_t i = 0; i < engine::kDecodeErrors; ++i) {
    const auto it = in.malformed().find(std::string(engine::decode_error_name(static_cast<engine::DecodeError>(i))));
    if (it != in.malformed().end()) s.malformed[i] = it->second;
  }
  for (std::size_t i = 0; i < engine::kIntegrityEvents; ++i) {
    const auto it = in.integrity().find(std::string(engine::integrity_event_name(static_cast<engine::IntegrityEvent>(i))));
    if (it != in.integrity().end()) s.integrity[i] = it->second;
  }
  s.own_datagrams_ignored = in.own_datagrams_ignored();
  s.messages_published = in.messages_published();
  s.messages_completed = in.messages_completed();
  s.deliveries = in.deliveries();
  s.duplicate_fragments = in.duplicate_fragments();
  s.mfrs_sent = in.mfrs_sent();
  s.mfr_items_sent = in.mfr_items_sent();
  s.mfr_rounds_gated = in.mfr_rounds_gated();
  s.mfrs_received = in.mfrs_received();
  s.repairs_queued = in.repairs_queued();
  s.repairs_suppressed_ntm = in.repairs_suppressed_ntm();
  s.queue_drops = in.queue_drops();
  s.messages_evicted = in.messages_evicted();
  s.messages_expired = in.messages_expired();
  s.hearsay_expired = in.hearsay_expired();
  s.hearsay_displaced = in.hearsay_displaced();
  s.hearsay_refused = in.hearsay_refused();
  s.peers_refused = in.peers_refused();
  s.signatures_checked = in.signatures_checked();
  s.signatures_vouched = in.signatures_vouched();
  s.messages_superseded = in.messages_superseded();
  s.messages_carried = in.messages_carried();
  s.carry_too_late = in.carry_too_late();
  s.publish_queue_full = in.publish_queue_full();
  s.rate_decreases = in.rate_decreases();
  s.relays_avoided = in.relays_avoided();
  s.silent = in.silent();
  s.requests_ignored_silent = in.requests_ignored_silent();
  s.cache_write_failures = in.cache_write_failures();
  s.fragments_unstored = in.fragments_unstored();
  s.cache_paused = in.cache_paused();
  s.clock_steps = in.clock_steps();
  s.clock_divergence = in.clock_divergence_us();
  s.ended_claims_refused = in.ended_claims_refused();
  s.ended_claims_contradicted = in.ended_claims_contradicted();
  s.fragments_refused_ended = in.fragments_refused_ended();
  s.own_ended_claims_contested = in.own_ended_claims_contested();
  s.own_seq_skipped = in.own_seq_skipped();
  s.supersession_refused = in.supersession_refused();
  s.bundles_sent = in.bundles_sent();
  s.bundled_items = in.bundled_items();
  s.bundles_received = in.bundles_received();
  s.group_refs_changed = in.group_refs_changed();
  s.requests_trimmed = in.requests_trimmed();
  s.request_bytes_trimmed = in.request_bytes_trimmed();
  s.forwards_queued = in.forwards_queued();
  s.forwards_suppressed_ntm = in.forwards_suppressed_ntm();
  s.summaries_sent = in.summaries_sent();
  s.summaries_received = in.summaries_received();
  s.pushes_queued = in.pushes_queued();
  s.pushes_sent = in.pushes_sent();
  s.pushes_suppressed_ntm = in.pushes_suppressed_ntm();
  s.coded_received = in.coding().received();
  s.coded_innovative = in.coding().innovative();
  s.coded_redundant = in.coding().redundant();
  s.coded_ignored = in.coding().ignored();
  s.coded_dropped_memory = in.coding().dropped_memory();
  s.blocks_decoded = in.coding().blocks_decoded();
  s.fragments_decoded = in.coding().fragments_decoded();
  s.coded_generated = in.coding().generated();
  s.coded_recoded = in.coding().recoded();
  s.parity_sent = in.coding().parity_sent();
  out.cache_bytes = in.cache_bytes();
  out.rss_bytes = in.rss_bytes();
  out.peak_rss_bytes = in.peak_rss_bytes();
  out.cache_messages = in.cache_messages();
  for (const auto& [name, own] : in.links()) {
    const StatsSnapshot l = from_proto(own);
    out.links.push_back(LinkStats{name, l.engine, l.cache_bytes, l.cache_messages});
  }
  std::sort(out.links.begin(), out.links.end(), [](const LinkStats& a, const LinkStats& b) { return a.name < b.name; });
  return out;
}

void to_proto(const PeerInfo& in, Peer& out) {
  out.set_node_id(in.node);
  out.set_last_heard_ms_ago(millis_from(in.last_heard_ago));
  out.set_estimated_loss(in.estimated_loss);
  out.set_srtt_ms(static_cast<double>(in.srtt) / static_cast<double>(kMillis));
  if (in.loss_in) out.set_loss_in(*in.loss_in);
  if (in.loss_out) out.set_loss_out(*in.loss_out);
  out.set_received_bytes_per_s(in.received_bytes_per_s);
  out.set_sent_bytes_per_s(in.sent_bytes_per_s);
  if (in.clock_offset) out.set_clock_offset_us(*in.clock_offset);
  out.set_link(in.link);
}

PeerInfo from_proto(const Peer& in) {
  PeerInfo out;
  out.node = in.node_id();
  out.last_heard_ago = static_cast<Micros>(in.last_heard_ms_ago()) * kMillis;
  out.estimated_loss = in.estimated_loss();
  out.srtt = static_cast<Micros>(in.srtt_ms() * static_cast<double>(kMillis));
  if (in.has_loss_in()) out.loss_in = in.loss_in();
  if (in.has_loss_out()) out.loss_out = in.loss_out();
  out.received_bytes_per_s = in.received_bytes_per_s();
  out.sent_bytes_per_s = in.sent_bytes_per_s();
  if (in.has_clock_offset_us()) out.clock_offset = in.clock_offset_us();
  out.link = in.link();
  return out;
}

void to_proto(const engine::Delivery& in, Delivery& out) {
  out.set_subscription_id(in.subscription);
  out.set_group(in.meta.id.group);
  out.set_publisher(in.meta.id.publisher);
  out.set_seq(in.meta.id.seq);
  out.set_priority(in.meta.priority);
  out.set_expiry_s(static_cast<std::uint32_t>((in.meta.expiry_ms + 999) / 1000));
  out.set_expiry_ms(in.meta.expiry_ms);
  out.set_replace(in.meta.replace);
  out.set_history_window(in.meta.history_window);
  out.set_tag(in.meta.tag);
  out.set_payload(in.payload.data(), in.payload.size());
}

engine::Delivery from_proto(const Delivery& in) {
  engine::Delivery out;
  out.subscription = in.subscription_id();
  out.meta.id = MessageId{in.group(), in.publisher(), in.seq()};
  out.meta.total_length = static_cast<std::uint32_t>(in.payload().size());
  out.meta.priority = in.priority();
  out.meta.expiry_ms = in.expiry_ms() != 0 ? in.expiry_ms() : std::uint64_t{in.expiry_s()} * 1000;
  out.meta.replace = in.replace();
  out.meta.history_window = in.history_window();
  out.meta.tag = in.tag();
  out.payload.assign(in.payload().begin(), in.payload().end());
  return out;
}

void to_proto(const engine::Event& in, Event& out) {
  switch (in.kind) {
    case engine::Event::Kind::PeerAppeared: out.set_kind(Event::PEER_APPEARED); break;
    case engine::Event::Kind::PeerSilent: out.set_kind(Event::PEER_SILENT); break;
    case engine::Event::Kind::MessageSkipped: out.set_kind(Event::MESSAGE_SKIPPED); break;
    case engine::Event::Kind::MessageEvicted: out.set_kind(Event::MESSAGE_EVICTED); break;
    case engine::Event::Kind::MessageRejected: out.set_kind(Event::MESSAGE_REJECTED); break;
    case engine::Event::Kind::ForgedOwnData: out.set_kind(Event::FORGED_OWN_DATA); break;
    case engine::Event::Kind::EndedClaimContested: out.set_kind(Event::ENDED_CLAIM_CONTESTED); break;
    case engine::Event::Kind::DataRefusedAsEnded: out.set_kind(Event::DATA_REFUSED_AS_ENDED); break;
    case engine::Event::Kind::ClockSkew: out.set_kind(Event::CLOCK_SKEW); break;
    case engine::Event::Kind::CacheWriteFailed: out.set_kind(Event::CACHE_WRITE_FAILED); break;
    case engine::Event::Kind::CacheResumed: out.set_kind(Event::CACHE_RESUMED); break;
    case engine::Event::Kind::ClockStepped: out.set_kind(Event::CLOCK_STEPPED); break;
    default: throw std::invalid_argument("unknown engine event kind");
  }
  out.set_peer(in.peer);
  out.set_clock_offset_us(in.clock_offset);
  out.set_detail(in.detail);
  out.set_group(in.message.group);
  out.set_publisher(in.message.publisher);
  out.set_seq(in.message.seq);
}

engine::Event from_proto(const Event& in) {
  engine::Event out{};
  switch (in.kind()) {
    case Event::PEER_APPEARED: out.kind = engine::Event::Kind::PeerAppeared; break;
    case Event::PEER_SILENT: out.kind = engine::Event::Kind::PeerSilent; break;
    case Event::MESSAGE_SKIPPED: out.kind = engine::Event::Kind::MessageSkipped; break;
    case Event::MESSAGE_EVICTED: out.kind = engine::Event::Kind::MessageEvicted; break;
    case Event::MESSAGE_REJECTED: out.kind = engine::Event::Kind::MessageRejected; break;
    case Event::FORGED_OWN_DATA: out.kind = engine::Event::Kind::ForgedOwnData; break;
    case Event::ENDED_CLAIM_CONTESTED: out.kind = engine::Event::Kind::EndedClaimContested; break;
    case Event::DATA_REFUSED_AS_ENDED: out.kind = engine::Event::Kind::DataRefusedAsEnded; break;
    case Event::CLOCK_SKEW: out.kind = engine::Event::Kind::ClockSkew; break;
    case Event::CACHE_WRITE_FAILED: out.kind = engine::Event::Kind::CacheWriteFailed; break;
    case Event::CACHE_RESUMED: out.kind = engine::Event::Kind::CacheResumed; break;
    case Event::CLOCK_STEPPED: out.kind = engine::Event::Kind::ClockStepped; break;
    default: throw std::invalid_argument("unknown IPC event kind " + std::to_string(in.kind()));
  }
  out.peer = in.peer();
  out.clock_offset = in.clock_offset_us();
  out.detail = in.detail();
  out.message = MessageId{in.group(), in.publisher(), in.seq()};
  return out;
}

void to_proto(const engine::PublishRequest& in, Publish& out) {
  out.set_group(in.group);
  out.set_payload(in.payload.data(), in.payload.size());
  out.set_priority(in.priority);
  out.set_expiry_ms(in.expiry_ms);
  out.set_lifetime_ms(in.lifetime_ms);
  out.set_history_window(in.history_window);
  out.set_tag(in.tag);
  out.set_replace(in.replace);
}

engine::PublishRequest from_proto(const Publish& in) {
  engine::PublishRequest out;
  out.group = in.group();
  out.payload.assign(in.payload().begin(), in.payload().end());
  out.priority = in.priority();
  out.expiry_ms = in.expiry_ms() != 0 ? in.expiry_ms() : std::uint64_t{in.expiry_s()} * 1000;
  out.lifetime_ms = in.lifetime_ms();
  out.history_window = in.history_window();
  out.tag = in.tag();
  out.replace = in.replace();
  return out;
}

void to_proto(const engine::CancelRequest& in, Cancel& out) {
  out.set_group(in.group);
  for (const std::uint64_t s : in.seqs) out.add_seqs(s);
  out.set_tag(in.tag);
  out.set_expiry_ms(in.expiry_ms);
}

engine::CancelRequest from_proto(const Cancel& in) {
  engine::CancelRequest out;
  out.group = in.group();
  out.seqs.assign(in.seqs().begin(), in.seqs().end());
  out.tag = in.tag();
  out.expiry_ms = in.expiry_ms();
  return out;
}

void to_proto(const std::string& group, const engine::SubscriptionOptions& in, Subscribe& out) {
  out.set_group(group);
  out.set_reliable(in.reliable);
  out.set_ordered(in.ordered);
  out.set_history(in.history);
  out.set_use_publisher_history(in.use_publisher_history);
  out.set_min_priority(in.min_priority);
  for (const auto& t : in.tags) out.add_tags(t);
  out.set_name(in.name);
  out.set_silent(in.silent);
}

engine::SubscriptionOptions from_proto(const Subscribe& in) {
  engine::SubscriptionOptions out;
  out.reliable = in.reliable();
  out.ordered = in.ordered();
  out.history = in.history();
  out.use_publisher_history = in.use_publisher_history();
  out.min_priority = in.min_priority();
  out.tags.assign(in.tags().begin(), in.tags().end());
  out.name = in.name();
  out.silent = in.silent();
  return out;
}

void to_proto(const engine::CachedMessage& in, CachedMessage& out) {
  out.set_group(in.meta.id.group);
  out.set_publisher(in.meta.id.publisher);
  out.set_seq(in.meta.id.seq);
  out.set_priority(in.meta.priority);
  out.set_expiry_ms(in.meta.expiry_ms);
  out.set_tag(in.meta.tag);
  out.set_total_length(in.meta.total_length);
  out.set_stored_bytes(in.stored_bytes);
  out.set_complete(in.complete);
  out.set_replace(in.meta.replace);
  out.set_cancel(in.meta.cancel);
  out.set_key_epoch(in.meta.key_epoch);
}

engine::CachedMessage from_proto(const CachedMessage& in) {
  engine::CachedMessage out;
  out.meta.id = MessageId{in.group(), in.publisher(), in.seq()};
  out.meta.priority = in.priority();
  out.meta.expiry_ms = in.expiry_ms();
  out.meta.tag = in.tag();
  out.meta.total_length = in.total_length();
  out.stored_bytes = in.stored_bytes();
  out.complete = in.complete();
  out.meta.replace = in.replace();
  out.meta.cancel = in.cancel();
  out.meta.key_epoch = in.key_epoch();
  return out;
}

engine::ListRequest from_proto(const List& in) {
  engine::ListRequest out;
  out.group = in.group();
  out.publisher = in.publisher();
  out.from_seq = in.from_seq();
  out.to_seq = in.to_seq();
  out.limit = in.limit() == 0 ? 1000 : in.limit();
  out.incomplete_only = in.incomplete_only();
  return out;
}

}  // namespace dissem::ipc
