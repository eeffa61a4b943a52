#include "daemon/metrics_help.h"

#include <map>
#include <string>

namespace dissem::daemon {

namespace {

// Keyed by the counter's path in `dissem stats --json` (ipc/stats_json.h);
// "*" stands for a traffic kind, a malformed reason or an integrity event.
const std::map<std::string, std::string_view>& help_table() {
  static const std::map<std::string, std::string_view> table = {
      {"traffic.*.sent.datagrams", "Datagrams sent, by kind of traffic."},
      {"traffic.*.sent.bytes", "Bytes sent (UDP payload), by kind of traffic."},
      {"traffic.*.received.datagrams", "Datagrams received, by kind of traffic."},
      {"traffic.*.received.bytes", "Bytes received (UDP payload), by kind of traffic."},
      {"mfrs.sent", "Missing-fragment requests sent."},
      {"mfrs.items_sent", "Message entries carried by the missing-fragment requests sent."},
      {"mfrs.rounds_gated", "Request rounds held back because incoming traffic was above the gate."},
      {"mfrs.received", "Missing-fragment requests received."},
      {"repairs.queued", "Repairs queued in answer to requests."},
      {"repairs.suppressed_ntm", "Repairs not sent because traffic memory showed the data on the air recently."},
      {"repairs.requests_trimmed", "Requests trimmed by the requester's serving budget."},
      {"repairs.request_bytes_trimmed", "Bytes of requested repairs trimmed by the serving budget."},
      {"forwards.queued", "Rebroadcasts queued by the forwarding controller."},
      {"forwards.suppressed_ntm", "Rebroadcasts not sent because traffic memory showed the data on the air recently."},
      {"replication.summaries_sent", "Anti-entropy summaries sent."},
      {"replication.summaries_received", "Anti-entropy summaries received."},
      {"replication.pushes_queued", "Replication pushes queued."},
      {"replication.pushes_sent", "Replication pushes sent."},
      {"replication.pushes_suppressed_ntm", "Replication pushes not sent because traffic memory showed the data."},
      {"coding.received", "Coded symbols received."},
      {"coding.innovative", "Coded symbols received that added to what was known."},
      {"coding.redundant", "Coded symbols received that added nothing."},
      {"coding.ignored", "Coded symbols ignored (message complete or unknown)."},
      {"coding.dropped_memory", "Coded symbols dropped at the decoders' memory bound."},
      {"coding.blocks_decoded", "Coding blocks decoded."},
      {"coding.fragments_decoded", "Fragments recovered by decoding."},
      {"coding.generated", "Coded symbols generated from whole blocks."},
      {"coding.recoded", "Coded symbols recoded from partial blocks."},
      {"coding.parity_sent", "Proactive parity symbols sent with first passes."},
      {"malformed.*", "Datagrams refused as malformed before use, by reason."},
      {"integrity.*", "Datagrams or messages refused by an integrity check, by event."},
      {"signatures.checked", "Message manifests whose signature was checked."},
      {"signatures.vouched", "Message manifests vouched for by a signed chain."},
      {"bundling.bundles_sent", "Datagrams sent carrying several frames."},
      {"bundling.bundled_items", "Frames carried in bundles sent."},
      {"bundling.bundles_received", "Bundled datagrams received."},
      {"group_refs_changed", "Short group references that changed meaning."},
      {"rate_decreases", "Times rate adaptation lowered the pace."},
      {"relays_avoided", "Silent relays routed around."},
      {"silent", "1 while the node is in radio silence (EMCON), else 0."},
      {"requests_ignored_silent", "Requests heard and left unanswered in radio silence."},
      {"ended_claims.refused", "Claims that a stream ended, refused."},
      {"ended_claims.contradicted", "Claims that a stream ended, taken back on the publisher's word."},
      {"ended_claims.fragments_refused", "Fragments refused because a claim said their stream had ended."},
      {"ended_claims.own_contested", "Claims about this node's own streams contested."},
      {"ended_claims.own_seq_skipped", "Own sequence numbers skipped past forgeries."},
      {"cache.bytes", "Payload bytes held in the cache."},
      {"cache.messages", "Messages held in the cache."},
      {"cache.paused", "1 while the cache cannot write and the node takes no data, else 0."},
      {"cache.write_failures", "Writes the cache refused (a full disk, a failing device)."},
      {"cache.fragments_unstored", "Fragments dropped because the cache could not write."},
      {"clock.steps", "Steps of the host's system clock seen (the node's wall time slews or follows)."},
      {"clock.divergence_seconds", "System clock minus the node's wall time, still being slewed away (seconds)."},
      {"process.rss_bytes", "Resident memory of the daemon process."},
      {"process.peak_rss_bytes", "Peak resident memory of the daemon process."},
      {"messages.published", "Messages published by local applications."},
      {"messages.completed", "Messages received whole."},
      {"messages.deliveries", "Deliveries to local subscriptions."},
      {"messages.duplicate_fragments", "Fragments received that were already held."},
      {"messages.evicted", "Messages evicted from the cache by its quota."},
      {"messages.expired", "Messages that expired."},
      {"messages.superseded", "Messages replaced by a newer one of their tag."},
      {"messages.carried", "Messages of other publishers carried into this network from another one (gateway)."},
      {"messages.carry_too_late",
       "Messages for this network from another that never went out: too late for the link, or shed while they "
       "waited behind fresher ones."},
      {"messages.supersession_refused", "Replacements refused."},
      {"messages.queue_full", "Publications refused because the send queue had no room."},
      {"hearsay.expired", "Hearsay about unseen messages forgotten."},
      {"hearsay.displaced", "Hearsay displaced by real data."},
      {"hearsay.refused", "Hearsay refused at its bound."},
      {"hearsay.peers_refused", "Peers refused at the peer table's bound."},
      {"queue_drops", "Datagrams dropped at the send queues' bound."},
      {"own_datagrams_ignored", "Own datagrams heard back and ignored."},
  };
  return table;
}

}  // namespace

std::optional<std::string_view> metric_help(const std::string& path) {
  const auto& table = help_table();
  const auto it = table.find(path);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

}  // namespace dissem::daemon
