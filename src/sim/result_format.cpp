#include "sim/result_format.h"

#include <fmt/format.h>

#include <cstdint>

#include "core/json.h"

namespace dissem::sim {
namespace {

double seconds(Micros t) { return static_cast<double>(t) / static_cast<double>(kSeconds); }

std::string time_or_dash(Micros t) { return t < 0 ? std::string("-") : fmt::format("{:.2f}", seconds(t)); }

// A double as the reports always gave it: six significant digits.
Json g6(double v) { return round_to_significant(v, 6); }

std::string node_name(const std::vector<std::string>& names, std::size_t i) {
  return i < names.size() ? names[i] : fmt::format("n{}", i);
}

Json traffic_json(const NodeTraffic& t) {
  Json j = Json::object();
  for (std::size_t k = 0; k < engine::kTrafficKinds; ++k)
    j[fmt::format("{}_bytes", engine::traffic_kind_name(static_cast<engine::TrafficKind>(k)))] = t.on_air[k].bytes;
  j["bytes"] = t.on_air_bytes();
  j["header_bytes"] = t.header_bytes;
  j["datagrams"] = t.on_air_datagrams();
  j["offered"] = t.offered.datagrams;
  j["queue_dropped"] = t.queue_dropped.datagrams;
  j["received"] = t.received.datagrams;
  j["lost"] = t.lost.datagrams;
  j["max_queue"] = static_cast<std::uint64_t>(t.max_queue);
  j["airtime_s"] = g6(seconds(t.airtime));
  return j;
}

Json medium_json(const MediumStats& m, const std::vector<std::string>& names) {
  Json nodes = Json::array();
  for (std::size_t i = 0; i < m.nodes.size(); ++i)
    nodes.push_back({{"name", node_name(names, i)}, {"traffic", traffic_json(m.nodes[i])}});
  return {{"nodes", std::move(nodes)}, {"total", traffic_json(m.total)}};
}

Json engine_json(const engine::Stats& e, const std::string& name) {
  Json j;
  j["name"] = name;
  j["mfrs_sent"] = e.mfrs_sent;
  j["mfr_rounds_gated"] = e.mfr_rounds_gated;
  j["mfrs_received"] = e.mfrs_received;
  j["repairs_queued"] = e.repairs_queued;
  j["repairs_suppressed_ntm"] = e.repairs_suppressed_ntm;
  j["forwards_queued"] = e.forwards_queued;
  j["forwards_suppressed_ntm"] = e.forwards_suppressed_ntm;
  j["summaries_sent"] = e.summaries_sent;
  j["pushes_sent"] = e.pushes_sent;
  j["pushes_suppressed_ntm"] = e.pushes_suppressed_ntm;
  j["coded_received"] = e.coded_received;
  j["coded_innovative"] = e.coded_innovative;
  j["blocks_decoded"] = e.blocks_decoded;
  j["fragments_decoded"] = e.fragments_decoded;
  j["coded_redundant"] = e.coded_redundant;
  j["coded_generated"] = e.coded_generated;
  j["coded_recoded"] = e.coded_recoded;
  j["parity_sent"] = e.parity_sent;
  j["duplicate_fragments"] = e.duplicate_fragments;
  j["queue_drops"] = e.queue_drops;
  j["malformed"] = e.malformed_total();
  return j;
}

// The members every report ends with, added to `j`.
void add_run(Json& j, const RunSummary& s, const std::vector<std::string>& names) {
  j["finished_s"] = g6(seconds(s.finished_at));
  j["all_complete"] = s.all_complete;
  j["trace_hash"] = fmt::format("{:016x}", s.trace_hash);
  j["medium"] = medium_json(s.medium, names);
  Json engines = Json::array();
  for (std::size_t i = 0; i < s.node_stats.size(); ++i) engines.push_back(engine_json(s.node_stats[i], node_name(names, i)));
  j["engine"] = std::move(engines);
  j["sim"] = {{"events", s.sim.events_run},
              {"timer_events", s.sim.timer_events},
              {"timer_stalls", s.sim.timer_stalls},
              {"radio_full", s.sim.radio_full}};
}

Json receivers_json(const std::vector<ReceiverOutcome>& rs, const std::vector<std::string>& names) {
  Json out = Json::array();
  for (const auto& r : rs) {
    out.push_back({{"name", names[r.node]},
                   {"messages", static_cast<std::uint64_t>(r.messages)},
                   {"bytes", r.bytes},
                   {"complete", r.complete},
                   {"delivery_s", g6(r.complete ? seconds(r.completed_at) : -1.0)},
                   {"duplicate_deliveries", static_cast<std::uint64_t>(r.duplicate_deliveries)}});
  }
  return out;
}

std::string format_engine(const RunSummary& s, const std::vector<std::string>& names) {
  std::string out = fmt::format("{:<8} {:>9} {:>8} {:>9} {:>9} {:>10} {:>10} {:>7}\n", "engine", "mfrs_sent",
                                "gated", "mfrs_rcvd", "repairs", "ntm_supp", "dup_frags", "drops");
  for (std::size_t i = 0; i < s.node_stats.size(); ++i) {
    const engine::Stats& e = s.node_stats[i];
    out += fmt::format("{:<8} {:>9} {:>8} {:>9} {:>9} {:>10} {:>10} {:>7}\n", names[i], e.mfrs_sent,
                       e.mfr_rounds_gated, e.mfrs_received, e.repairs_queued, e.repairs_suppressed_ntm,
                       e.duplicate_fragments, e.queue_drops);
  }
  return out;
}

std::string format_footer(const RunSummary& s) {
  std::string out;
  out += fmt::format("sim: {} events, {} timer events, {} timer stalls, {} radio-full polls\n", s.sim.events_run,
                     s.sim.timer_events, s.sim.timer_stalls, s.sim.radio_full);
  out += fmt::format("trace hash: {:016x}\n", s.trace_hash);
  return out;
}

// The part every report ends with: completion, traffic on the medium, engine
// counters and the footer. Appended piecewise: GCC 12 at -O3 reports a false
// -Wrestrict on "\n" + std::string. `lead` goes before "all complete".
std::string format_run_tail(const RunSummary& run, const std::vector<std::string>& names, std::string_view lead) {
  std::string out = fmt::format("{}all complete: {}; run stopped at {:.2f} s\n\n", lead,
                                run.all_complete ? "yes" : "no", seconds(run.finished_at));
  out += format_medium(run.medium, names);
  out += '\n';
  out += format_engine(run, names);
  out += '\n';
  out += format_footer(run);
  return out;
}

std::string format_receivers(const std::vector<ReceiverOutcome>& rs, std::size_t expected,
                             const std::vector<std::string>& names) {
  std::string out = fmt::format("{:<8} {:>9} {:>12} {:>12} {:>11}\n", "receiver", "complete", "messages", "bytes",
                                "delivery_s");
  for (const auto& r : rs) {
    out += fmt::format("{:<8} {:>9} {:>12} {:>12} {:>11}\n", names[r.node], r.complete ? "yes" : "no",
                       fmt::format("{}/{}", r.messages, expected), r.bytes,
                       r.complete ? time_or_dash(r.completed_at) : std::string("-"));
    if (r.duplicate_deliveries > 0)
      out += fmt::format("  ({} duplicate deliveries)\n", r.duplicate_deliveries);
  }
  return out;
}

std::vector<std::string> baseline_names(std::size_t receivers) {
  std::vector<std::string> names{"sender"};
  for (std::size_t r = 1; r <= receivers; ++r) names.push_back(fmt::format("r{}", r));
  return names;
}

std::vector<std::string> tactical_names(const TacticalParams& p) {
  std::vector<std::string> names{"uav"};
  for (std::size_t g = 1; g <= p.ground_nodes; ++g)
    names.push_back(g <= p.subscribers ? fmt::format("sub{}", g) : fmt::format("relay{}", g - p.subscribers));
  return names;
}

}  // namespace

std::string format_medium(const MediumStats& m, const std::vector<std::string>& names) {
  std::string out = fmt::format("{:<8} {:>10} {:>10} {:>9} {:>9} {:>10} {:>9} {:>11} {:>10} {:>9} {:>7} {:>9} {:>8}\n",
                                "node", "data_B", "repair_B", "mfr_B", "beacon_B", "forward_B", "summary_B", "total_B",
                                "header_B", "datagrams", "qdrops", "received", "lost");
  auto row = [&out](const std::string& name, const NodeTraffic& t) {
    using engine::TrafficKind;
    out += fmt::format("{:<8} {:>10} {:>10} {:>9} {:>9} {:>10} {:>9} {:>11} {:>10} {:>9} {:>7} {:>9} {:>8}\n", name,
                       t.on_air_bytes(TrafficKind::Data), t.on_air_bytes(TrafficKind::Repair),
                       t.on_air_bytes(TrafficKind::Request), t.on_air_bytes(TrafficKind::Beacon),
                       t.on_air_bytes(TrafficKind::Forward), t.on_air_bytes(TrafficKind::Summary), t.on_air_bytes(),
                       t.header_bytes, t.on_air_datagrams(), t.queue_dropped.datagrams, t.received.datagrams,
                       t.lost.datagrams);
  };
  for (std::size_t i = 0; i < m.nodes.size(); ++i) row(i < names.size() ? names[i] : fmt::format("n{}", i), m.nodes[i]);
  row("total", m.total);
  out += fmt::format("bytes on the network: {} UDP payload, {} with IPv4/UDP headers\n", m.total.on_air_bytes(),
                     m.total.on_air_bytes() + m.total.header_bytes);
  return out;
}

// --- baseline ----------------------------------------------------------------------------

std::string format_baseline(const BaselineResult& r) {
  const auto& p = r.params;
  const auto names = baseline_names(p.receivers);
  std::string out;
  out += fmt::format("baseline: 1 sender -> {} receiver(s), {} kbit/s ({} bit/s), reliability {} %{}, seed {}\n",
                     p.receivers, p.capacity_kbps, r.capacity_bps, p.reliability_pct,
                     p.shared_channel ? ", shared channel" : "", p.seed);
  out += fmt::format("data: {} bytes in {} message(s)\n", p.bytes, r.messages);
  out += fmt::format("lower bound k/(r*C): {:.2f} s\n\n", r.lower_bound_s);
  out += format_receivers(r.receivers, r.messages, names);
  out += format_run_tail(r.run, names, fmt::format("\nmean delivery time: {:.2f} s; ", r.mean_delivery_s));
  return out;
}

std::string baseline_json(const BaselineResult& r) {
  const auto& p = r.params;
  const auto names = baseline_names(p.receivers);
  Json j;
  j["experiment"] = "baseline";
  j["params"] = {{"receivers", static_cast<std::uint64_t>(p.receivers)},
                 {"capacity_kbps", g6(p.capacity_kbps)},
                 {"capacity_bps", r.capacity_bps},
                 {"reliability_pct", g6(p.reliability_pct)},
                 {"bytes", p.bytes},
                 {"message_size", p.message_size},
                 {"messages", static_cast<std::uint64_t>(r.messages)},
                 {"seed", p.seed},
                 {"shared_channel", p.shared_channel}};
  j["lower_bound_s"] = g6(r.lower_bound_s);
  j["mean_delivery_s"] = g6(r.mean_delivery_s);
  j["total_bytes"] = r.run.medium.total.on_air_bytes();
  j["total_bytes_with_headers"] = r.run.medium.total.on_air_bytes() + r.run.medium.total.header_bytes;
  j["receivers"] = receivers_json(r.receivers, names);
  add_run(j, r.run, names);
  return json_text(j) + "\n";
}

// --- tactical ----------------------------------------------------------------------------

std::string format_tactical(const TacticalResult& r) {
  const auto& p = r.params;
  const auto names = tactical_names(p);
  std::string out;
  out += fmt::format(
      "tactical: uav -> {} ground nodes ({} subscribe), uav links {} kbit/s at {} %{}, ground {} kbit/s at {} %, "
      "seed {}\n",
      p.ground_nodes, p.subscribers, p.sender_capacity_kbps, p.sender_reliability_pct,
      p.asymmetric ? " (asymmetric: ground -> uav disabled)" : "", p.ground_capacity_kbps, p.ground_reliability_pct,
      p.seed);
  out += fmt::format("messages of {} bytes over a {:.1f} s window, then up to {:.1f} s to settle\n\n", p.message_size,
                     seconds(p.window), seconds(p.settle));
  out += format_receivers(r.subscribers, r.messages_sent, names);
  out += fmt::format("\n{:<34} {:>12}\n", "metric", "value");
  out += fmt::format("{:<34} {:>12}\n", "messages sent", r.messages_sent);
  out += fmt::format("{:<34} {:>12.1f}\n", "messages received (mean)", r.mean_received);
  out += fmt::format("{:<34} {:>12.1f}\n", "success %", r.success_pct);
  out += fmt::format("{:<34} {:>12.1f}\n", "sender overhead B/msg (UDP)", r.sender_overhead_per_msg);
  out += fmt::format("{:<34} {:>12.1f}\n", "sender overhead B/msg (+IP/UDP)", r.sender_overhead_wire_per_msg);
  out += fmt::format("{:<34} {:>12.1f}\n", "p2p overhead B/msg (UDP)", r.p2p_overhead_per_msg);
  out += fmt::format("{:<34} {:>12.1f}\n", "p2p overhead B/msg (+IP/UDP)", r.p2p_overhead_wire_per_msg);
  out += format_run_tail(r.run, names, "");
  return out;
}

std::string tactical_json(const TacticalResult& r) {
  const auto& p = r.params;
  const auto names = tactical_names(p);
  Json j;
  j["experiment"] = "tactical";
  j["params"] = {{"sender_reliability_pct", g6(p.sender_reliability_pct)},
                 {"message_size", static_cast<std::uint64_t>(p.message_size)},
                 {"asymmetric", p.asymmetric},
                 {"window_s", g6(seconds(p.window))},
                 {"settle_s", g6(seconds(p.settle))},
                 {"sender_capacity_kbps", g6(p.sender_capacity_kbps)},
                 {"ground_capacity_kbps", g6(p.ground_capacity_kbps)},
                 {"ground_reliability_pct", g6(p.ground_reliability_pct)},
                 {"ground_nodes", static_cast<std::uint64_t>(p.ground_nodes)},
                 {"subscribers", static_cast<std::uint64_t>(p.subscribers)},
                 {"seed", p.seed},
                 {"shared_channel", p.shared_channel}};
  j["messages_sent"] = static_cast<std::uint64_t>(r.messages_sent);
  j["mean_received"] = g6(r.mean_received);
  j["success_pct"] = g6(r.success_pct);
  j["sender_overhead_per_msg"] = g6(r.sender_overhead_per_msg);
  j["sender_overhead_wire_per_msg"] = g6(r.sender_overhead_wire_per_msg);
  j["p2p_overhead_per_msg"] = g6(r.p2p_overhead_per_msg);
  j["p2p_overhead_wire_per_msg"] = g6(r.p2p_overhead_wire_per_msg);
  j["subscribers"] = receivers_json(r.subscribers, names);
  add_run(j, r.run, names);
  return json_text(j) + "\n";
}

// --- scenario ------------------------------------------------------------------------------

std::string format_metrics(const ScenarioMetrics& m) {
  std::string out = fmt::format("\n{:<38} {:>12}\n", "metric", "value");
  const auto row = [&out](std::string_view name, const std::string& value) {
    out += fmt::format("{:<38} {:>12}\n", name, value);
  };
  row("delivered / expected", fmt::format("{}/{}", m.delivered, m.expected));
  row("delivery ratio", fmt::format("{:.3f}", m.delivery_ratio));
  row("latency mean s (live messages)", fmt::format("{:.3f}", m.mean_latency_s));
  row("latency max s", fmt::format("{:.3f}", m.max_latency_s));
  row("fragment transmissions", fmt::format("{}", m.fragment_transmissions));
  row("transmissions per delivered message", fmt::format("{:.2f}", m.transmissions_per_delivery));
  if (m.publish_waits > 0 || m.not_offered > 0)
    row("publishes that waited / not offered", fmt::format("{} / {}", m.publish_waits, m.not_offered));
  row("datagrams on the air (all kinds)", fmt::format("{}", m.datagrams));
  row("rebroadcasts (forward)", fmt::format("{}", m.forwards));
  row("replication pushes / summaries", fmt::format("{} / {}", m.pushes, m.summaries));
  row("duplicate fragments received", fmt::format("{}", m.duplicate_fragments));
  row("duplicate deliveries", fmt::format("{}", m.duplicate_deliveries));
  row("all complete at s", time_or_dash(m.complete_at));
  if (m.last_change_at >= 0) {
    row("last link change at s", time_or_dash(m.last_change_at));
    row("full delivery after it, s",
        m.complete_at >= 0 ? fmt::format("{:.2f}", seconds(std::max<Micros>(m.complete_at - m.last_change_at, 0)))
                           : std::string("-"));
    row("fragment transmissions after it", fmt::format("{}", m.fragment_transmissions_after_change));
    row("duplicate fragments received after it", fmt::format("{}", m.duplicate_fragments_after_change));
  }
  return out;
}

std::string format_scenario(const ScenarioResult& r) {
  std::vector<std::string> names;
  for (const auto& n : r.nodes) names.push_back(n.name);
  std::string out = fmt::format("scenario: {}, seed {}\n\n", r.source, r.seed);
  out += fmt::format("{:<12} {:>9} {:>12} {:>12} {:>11} {:>10} {:>10}\n", "node", "complete", "messages", "bytes",
                     "complete_s", "latency_s", "max_lat_s");
  for (const auto& n : r.nodes) {
    if (n.expected == 0 && n.delivered == 0) {
      out += fmt::format("{:<12} {:>9} {:>12} {:>12} {:>11} {:>10} {:>10}\n", n.name, "-", "-", "-", "-", "-", "-");
      continue;
    }
    out += fmt::format("{:<12} {:>9} {:>12} {:>12} {:>11} {:>10.3f} {:>10.3f}\n", n.name, n.complete ? "yes" : "no",
                       fmt::format("{}/{}", n.delivered, n.expected), n.bytes,
                       n.complete ? time_or_dash(n.completed_at) : std::string("-"), n.mean_latency_s,
                       n.max_latency_s);
    if (n.duplicate_deliveries > 0) out += fmt::format("  ({} duplicate deliveries)\n", n.duplicate_deliveries);
  }
  out += format_metrics(r.metrics);
  out += format_run_tail(r.run, names, "\n");
  return out;
}

namespace {

Json scenario_node_json(const ScenarioNodeOutcome& n) {
  return {{"name", n.name},
          {"expected", static_cast<std::uint64_t>(n.expected)},
          {"delivered", static_cast<std::uint64_t>(n.delivered)},
          {"bytes", n.bytes},
          {"complete", n.complete},
          {"complete_s", g6(n.complete ? seconds(n.completed_at) : -1.0)},
          {"duplicate_deliveries", static_cast<std::uint64_t>(n.duplicate_deliveries)},
          {"mean_latency_s", g6(n.mean_latency_s)},
          {"max_latency_s", g6(n.max_latency_s)}};
}

Json metrics_json(const ScenarioMetrics& m) {
  const bool settled = m.complete_at >= 0 && m.last_change_at >= 0;
  Json j;
  j["expected"] = static_cast<std::uint64_t>(m.expected);
  j["delivered"] = static_cast<std::uint64_t>(m.delivered);
  j["delivery_ratio"] = g6(m.delivery_ratio);
  j["publish_waits"] = static_cast<std::uint64_t>(m.publish_waits);
  j["not_offered"] = static_cast<std::uint64_t>(m.not_offered);
  j["mean_latency_s"] = g6(m.mean_latency_s);
  j["max_latency_s"] = g6(m.max_latency_s);
  j["complete_s"] = g6(m.complete_at >= 0 ? seconds(m.complete_at) : -1.0);
  j["last_change_s"] = g6(m.last_change_at >= 0 ? seconds(m.last_change_at) : -1.0);
  j["full_delivery_after_last_change_s"] =
      g6(settled ? seconds(std::max<Micros>(m.complete_at - m.last_change_at, 0)) : -1.0);
  j["fragment_transmissions"] = m.fragment_transmissions;
  j["fragment_transmissions_after_last_change"] = m.fragment_transmissions_after_change;
  j["duplicate_fragments_after_last_change"] = m.duplicate_fragments_after_change;
  j["transmissions_per_delivery"] = g6(m.transmissions_per_delivery);
  j["datagrams"] = m.datagrams;
  j["forwards"] = m.forwards;
  j["pushes"] = m.pushes;
  j["summaries"] = m.summaries;
  j["duplicate_fragments"] = m.duplicate_fragments;
  j["duplicate_deliveries"] = static_cast<std::uint64_t>(m.duplicate_deliveries);
  return j;
}

}  // namespace

std::string scenario_json(const ScenarioResult& r) {
  std::vector<std::string> names;
  for (const auto& n : r.nodes) names.push_back(n.name);
  Json j;
  j["experiment"] = "scenario";
  j["source"] = r.source;
  j["seed"] = r.seed;
  Json nodes = Json::array();
  for (const auto& n : r.nodes) nodes.push_back(scenario_node_json(n));
  j["nodes"] = std::move(nodes);
  j["metrics"] = metrics_json(r.metrics);
  add_run(j, r.run, names);
  return json_text(j) + "\n";
}

}  // namespace dissem::sim
