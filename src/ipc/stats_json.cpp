#include "ipc/stats_json.h"

#include <cstddef>
#include <string>

namespace dissem::ipc {

namespace {

using engine::kDecodeErrors;
using engine::kTrafficKinds;
using engine::TrafficKind;

TrafficKind kind_at(std::size_t i) { return static_cast<TrafficKind>(i); }
engine::DecodeError error_at(std::size_t i) { return static_cast<engine::DecodeError>(i); }

}  // namespace

Json stats_json(const StatsSnapshot& snap) {
  const auto& s = snap.engine;
  Json traffic = Json::object();
  for (std::size_t i = 0; i < kTrafficKinds; ++i) {
    traffic[std::string(engine::traffic_kind_name(kind_at(i)))] = {
        {"sent", {{"datagrams", s.sent[i].datagrams}, {"bytes", s.sent[i].bytes}}},
        {"received", {{"datagrams", s.received[i].datagrams}, {"bytes", s.received[i].bytes}}}};
  }
  Json malformed = Json::object();
  for (std::size_t i = 0; i < kDecodeErrors; ++i) malformed[std::string(engine::decode_error_name(error_at(i)))] = s.malformed[i];
  malformed["total"] = s.malformed_total();
  Json integrity = Json::object();
  for (std::size_t i = 0; i < engine::kIntegrityEvents; ++i)
    integrity[std::string(engine::integrity_event_name(static_cast<engine::IntegrityEvent>(i)))] = s.integrity[i];
  integrity["total"] = s.integrity_total();
  Json j;
  j["traffic"] = std::move(traffic);
  j["mfrs"] = {{"sent", s.mfrs_sent},
               {"items_sent", s.mfr_items_sent},
               {"rounds_gated", s.mfr_rounds_gated},
               {"received", s.mfrs_received}};
  j["repairs"] = {{"queued", s.repairs_queued},
                  {"suppressed_ntm", s.repairs_suppressed_ntm},
                  {"requests_trimmed", s.requests_trimmed},
                  {"request_bytes_trimmed", s.request_bytes_trimmed}};
  j["forwards"] = {{"queued", s.forwards_queued}, {"suppressed_ntm", s.forwards_suppressed_ntm}};
  j["replication"] = {{"summaries_sent", s.summaries_sent},
                      {"summaries_received", s.summaries_received},
                      {"pushes_queued", s.pushes_queued},
                      {"pushes_sent", s.pushes_sent},
                      {"pushes_suppressed_ntm", s.pushes_suppressed_ntm}};
  j["coding"] = {{"received", s.coded_received},
                 {"innovative", s.coded_innovative},
                 {"redundant", s.coded_redundant},
                 {"ignored", s.coded_ignored},
                 {"dropped_memory", s.coded_dropped_memory},
                 {"blocks_decoded", s.blocks_decoded},
                 {"fragments_decoded", s.fragments_decoded},
                 {"generated", s.coded_generated},
                 {"recoded", s.coded_recoded},
                 {"parity_sent", s.parity_sent}};
  j["malformed"] = std::move(malformed);
  j["integrity"] = std::move(integrity);
  j["signatures"] = {{"checked", s.signatures_checked}, {"vouched", s.signatures_vouched}};
  j["bundling"] = {{"bundles_sent", s.bundles_sent},
                   {"bundled_items", s.bundled_items},
                   {"bundles_received", s.bundles_received}};
  j["group_refs_changed"] = s.group_refs_changed;
  j["rate_decreases"] = s.rate_decreases;
  j["relays_avoided"] = s.relays_avoided;
  j["silent"] = s.silent;
  j["requests_ignored_silent"] = s.requests_ignored_silent;
  j["ended_claims"] = {{"refused", s.ended_claims_refused},
                       {"contradicted", s.ended_claims_contradicted},
                       {"fragments_refused", s.fragments_refused_ended},
                       {"own_contested", s.own_ended_claims_contested},
                       {"own_seq_skipped", s.own_seq_skipped}};
  j["cache"] = {{"bytes", snap.cache_bytes},
                {"messages", snap.cache_messages},
                {"paused", s.cache_paused},
                {"write_failures", s.cache_write_failures},
                {"fragments_unstored", s.fragments_unstored}};
  j["clock"] = {{"steps", s.clock_steps}, {"divergence_seconds", static_cast<double>(s.clock_divergence) / kSeconds}};
  j["process"] = {{"rss_bytes", snap.rss_bytes}, {"peak_rss_bytes", snap.peak_rss_bytes}};
  j["messages"] = {{"published", s.messages_published},
                   {"completed", s.messages_completed},
                   {"deliveries", s.deliveries},
                   {"duplicate_fragments", s.duplicate_fragments},
                   {"evicted", s.messages_evicted},
                   {"expired", s.messages_expired},
                   {"superseded", s.messages_superseded},
                   {"supersession_refused", s.supersession_refused},
                   {"carried", s.messages_carried},
                   {"carry_too_late", s.carry_too_late},
                   {"queue_full", s.publish_queue_full}};
  j["hearsay"] = {{"expired", s.hearsay_expired},
                  {"displaced", s.hearsay_displaced},
                  {"refused", s.hearsay_refused},
                  {"peers_refused", s.peers_refused}};
  j["queue_drops"] = s.queue_drops;
  j["own_datagrams_ignored"] = s.own_datagrams_ignored;
  // A daemon's links of their own (daemon/node_link.h), each as the main one.
  if (!snap.links.empty()) {
    Json links = Json::object();
    for (const auto& l : snap.links) {
      Json one = stats_json(snapshot_of(l));
      one.erase("process");  // one process: its memory is the daemon's, above
      links[l.name] = std::move(one);
    }
    j["links"] = std::move(links);
  }
  return j;
}

}  // namespace dissem::ipc
