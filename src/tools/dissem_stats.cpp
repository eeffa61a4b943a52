// `dissem stats`: the daemon's counters as a table, or as JSON for scripts
// (--json).
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "tools/dissem_commands.h"
#include "tools/dissem_common.h"
#include "tools/dissem_progress.h"

namespace dissem::cli {

namespace {

using engine::kDecodeErrors;
using engine::kTrafficKinds;
using engine::TrafficKind;

TrafficKind kind_at(std::size_t i) { return static_cast<TrafficKind>(i); }
engine::DecodeError error_at(std::size_t i) { return static_cast<engine::DecodeError>(i); }

void print(const std::string& text) { std::fputs(text.c_str(), stdout); }

}  // namespace

Json stats_json(const ipc::StatsSnapshot& snap) {
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
  j["cache"] = {{"bytes", snap.cache_bytes}, {"messages", snap.cache_messages}};
  j["process"] = {{"rss_bytes", snap.rss_bytes}, {"peak_rss_bytes", snap.peak_rss_bytes}};
  j["messages"] = {{"published", s.messages_published},
                   {"completed", s.messages_completed},
                   {"deliveries", s.deliveries},
                   {"duplicate_fragments", s.duplicate_fragments},
                   {"evicted", s.messages_evicted},
                   {"expired", s.messages_expired},
                   {"superseded", s.messages_superseded},
                   {"supersession_refused", s.supersession_refused},
                   {"queue_full", s.publish_queue_full}};
  j["hearsay"] = {{"expired", s.hearsay_expired},
                  {"displaced", s.hearsay_displaced},
                  {"refused", s.hearsay_refused},
                  {"peers_refused", s.peers_refused}};
  j["queue_drops"] = s.queue_drops;
  j["own_datagrams_ignored"] = s.own_datagrams_ignored;
  return j;
}

namespace {

std::string stats_table(const ipc::StatsSnapshot& snap) {
  const auto& s = snap.engine;
  std::string t = s.silent ? fmt::format("EMCON:    silent, nothing is sent ({} requests heard and left unanswered)\n",
                                         s.requests_ignored_silent)
                           : std::string{};
  t += fmt::format("{:<8} {:>14} {:>12} {:>14} {:>12}\n", "traffic", "sent dgrams", "sent bytes",
                              "recv dgrams", "recv bytes");
  for (std::size_t i = 0; i < kTrafficKinds; ++i) {
    t += fmt::format("{:<8} {:>14} {:>12} {:>14} {:>12}\n", engine::traffic_kind_name(kind_at(i)), s.sent[i].datagrams,
                     s.sent[i].bytes, s.received[i].datagrams, s.received[i].bytes);
  }
  t += fmt::format("MFRs:     sent {} ({} message entries, {} rounds gated by incoming traffic), received {}\n",
                   s.mfrs_sent, s.mfr_items_sent, s.mfr_rounds_gated, s.mfrs_received);
  t += fmt::format("repairs:  queued {}, suppressed by NTM {}; requests trimmed by the budget {} ({})\n",
                   s.repairs_queued, s.repairs_suppressed_ntm, s.requests_trimmed,
                   human_bytes(static_cast<double>(s.request_bytes_trimmed)));
  t += fmt::format("forwards: queued {}, suppressed by NTM {}\n", s.forwards_queued, s.forwards_suppressed_ntm);
  t += fmt::format("replication: summaries sent {}, received {}; pushes queued {}, sent {}, suppressed by NTM {}\n",
                   s.summaries_sent, s.summaries_received, s.pushes_queued, s.pushes_sent, s.pushes_suppressed_ntm);
  t += fmt::format("coding:   symbols heard {} ({} innovative, {} redundant), blocks decoded {} ({} fragments), "
                   "symbols made {} (+{} recoded), proactive {}\n",
                   s.coded_received, s.coded_innovative, s.coded_redundant, s.blocks_decoded, s.fragments_decoded,
                   s.coded_generated, s.coded_recoded, s.parity_sent);
  t += fmt::format("malformed: {}", s.malformed_total());
  // Only the reasons that occurred: the full list is in --json.
  std::string reasons;
  for (std::size_t i = 0; i < kDecodeErrors; ++i) {
    if (s.malformed[i] == 0) continue;
    if (!reasons.empty()) reasons += ", ";
    reasons += fmt::format("{} {}", engine::decode_error_name(error_at(i)), s.malformed[i]);
  }
  if (!reasons.empty()) t += fmt::format(" ({})", reasons);
  t += '\n';
  t += fmt::format("integrity: {} refused or dropped", s.integrity_total());
  reasons.clear();
  for (std::size_t i = 0; i < engine::kIntegrityEvents; ++i) {
    if (s.integrity[i] == 0) continue;
    if (!reasons.empty()) reasons += ", ";
    reasons += fmt::format("{} {}", engine::integrity_event_name(static_cast<engine::IntegrityEvent>(i)), s.integrity[i]);
  }
  if (!reasons.empty()) t += fmt::format(" ({})", reasons);
  t += '\n';
  if (s.bundles_sent + s.bundles_received > 0)
    t += fmt::format("bundled:  {} datagrams sent carrying {} frames, {} received\n", s.bundles_sent, s.bundled_items,
                     s.bundles_received);
  if (s.signatures_checked + s.signatures_vouched > 0)
    t += fmt::format("signed:   {} manifests checked, {} vouched for by the chain\n", s.signatures_checked,
                     s.signatures_vouched);
  t += fmt::format("memory:   {} resident, {} at peak\n", human_bytes(static_cast<double>(snap.rss_bytes)),
                   human_bytes(static_cast<double>(snap.peak_rss_bytes)));
  t += fmt::format("cache:    {} in {} messages\n", human_bytes(static_cast<double>(snap.cache_bytes)),
                   snap.cache_messages);
  t += fmt::format("messages: published {}, completed {}, delivered {}, evicted {}, expired {}, superseded {}\n",
                   s.messages_published, s.messages_completed, s.deliveries, s.messages_evicted, s.messages_expired,
                   s.messages_superseded);
  t += fmt::format("hearsay:  forgotten {}, displaced by data {}, refused {}; peers refused {}\n",
                   s.hearsay_expired, s.hearsay_displaced, s.hearsay_refused, s.peers_refused);
  t += fmt::format("ended:    claims refused {}, taken back {}; fragments refused on a claim {}; claims about our "
                   "own streams contested {}; own numbers skipped past forgeries {}\n",
                   s.ended_claims_refused, s.ended_claims_contradicted, s.fragments_refused_ended,
                   s.own_ended_claims_contested, s.own_seq_skipped);
  t += fmt::format("other:    duplicate fragments {}, send queue drops {}, own datagrams ignored {}, pace lowered {}, "
                   "silent relays avoided {}\n",
                   s.duplicate_fragments, s.queue_drops, s.own_datagrams_ignored, s.rate_decreases, s.relays_avoided);
  return t;
}

}  // namespace

void run_stats(const std::string& socket, bool json) {
  auto c = connect_or_explain(socket);
  const auto snap = c.stats();
  print(json ? json_text(stats_json(snap)) + "\n" : stats_table(snap));
}

void run_emcon(const std::string& socket, const std::string& state) {
  auto c = connect_or_explain(socket);
  c.set_silent(state == "on");
}

}  // namespace dissem::cli
