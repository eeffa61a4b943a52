// `dissem stats`: the daemon's counters as a table, or as JSON for scripts
// (--json).
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/json.h"

#include "ipc/stats_json.h"
#include "tools/dissem_commands.h"
#include "tools/dissem_common.h"
#include "tools/dissem_progress.h"

namespace dissem::cli {

namespace {

using engine::kDecodeErrors;
using engine::kTrafficKinds;


std::string stats_table(const ipc::StatsSnapshot& snap) {
  const auto& s = snap.engine;
  std::string t = s.silent ? fmt::format("EMCON:    silent, nothing is sent ({} requests heard and left unanswered)\n",
                                         s.requests_ignored_silent)
                           : std::string{};
  t += fmt::format("{:<8} {:>14} {:>12} {:>14} {:>12}\n", "traffic", "sent dgrams", "sent bytes",
                              "recv dgrams", "recv bytes");
  for (std::size_t i = 0; i < kTrafficKinds; ++i) {
    t += fmt::format("{:<8} {:>14} {:>12} {:>14} {:>12}\n", engine::traffic_kind_name(static_cast<engine::TrafficKind>(i)), s.sent[i].datagrams,
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
    reasons += fmt::format("{} {}", engine::decode_error_name(static_cast<engine::DecodeError>(i)), s.malformed[i]);
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
  if (s.cache_paused || s.cache_write_failures != 0)
    t += fmt::format("          {}writes refused {}, fragments dropped for it {}\n",
                     s.cache_paused ? "PAUSED, the cache cannot write (a full disk?); " : "", s.cache_write_failures,
                     s.fragments_unstored);
  if (s.clock_steps != 0)
    t += fmt::format("clock:    the system clock stepped {} times; still {:+.1f} s from dissem's wall time\n",
                     s.clock_steps, static_cast<double>(s.clock_divergence) / 1e6);
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
  if (s.messages_carried + s.carry_too_late > 0 || !snap.links.empty())
    t += fmt::format("carried:  {} messages into this network from the others, {} never went out (too late for the "
                     "link)\n",
                     s.messages_carried, s.carry_too_late);
  // A daemon's links of their own: each its own node on its own network.
  for (const auto& l : snap.links) {
    std::uint64_t sent = 0, received = 0;
    for (const auto& c : l.engine.sent) sent += c.bytes;
    for (const auto& c : l.engine.received) received += c.bytes;
    t += fmt::format("link {}: sent {}, received {}; carried in {} messages, {} never went out (too late); cache {} in {} "
                     "messages\n",
                     l.name, human_bytes(static_cast<double>(sent)), human_bytes(static_cast<double>(received)),
                     l.engine.messages_carried, l.engine.carry_too_late,
                     human_bytes(static_cast<double>(l.cache_bytes)), l.cache_messages);
  }
  return t;
}

}  // namespace

void run_stats(const std::string& socket, bool json) {
  auto c = connect_or_explain(socket);
  const auto snap = c.stats();
  print(json ? json_text(ipc::stats_json(snap)) + "\n" : stats_table(snap));
}

void run_emcon(const std::string& socket, const std::string& state) {
  auto c = connect_or_explain(socket);
  c.set_silent(state == "on");
}

void run_reload(const std::string& socket, bool json) {
  auto c = connect_or_explain(socket);
  const auto r = c.reload();
  if (json) {
    print(json_text(Json{{"applied", r.applied}, {"needs_restart", r.needs_restart}, {"keys", r.keys}}) + "\n");
    return;
  }
  const auto list = [](const std::vector<std::string>& keys) {
    return keys.empty() ? std::string("none") : fmt::format("{}", fmt::join(keys, ", "));
  };
  print(fmt::format("applied: {}\nneeds a restart: {}\nkeys: {}\n", list(r.applied), list(r.needs_restart), r.keys));
}

}  // namespace dissem::cli
