#include "sim/report.h"

#include <fmt/format.h>

#include <cstdint>

namespace dissem::sim {
namespace {

double seconds(Micros t) { return static_cast<double>(t) / static_cast<double>(kSeconds); }

std::string time_or_dash(Micros t) { return t < 0 ? std::string("-") : fmt::format("{:.2f}", seconds(t)); }

// Minimal JSON writer: values are numbers, booleans and strings; commas are
// placed by tracking whether the current container already has a member.
class Json {
 public:
  Json& open(char bracket) {
    separate();
    out_ += bracket;
    first_.push_back(true);
    return *this;
  }
  Json& close(char bracket) {
    out_ += bracket;
    first_.pop_back();
    return *this;
  }
  Json& key(std::string_view k) {
    separate();
    quote(k);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  Json& str(std::string_view v) {
    separate();
    quote(v);
    return *this;
  }
  Json& num(double v) {
    separate();
    out_ += fmt::format("{:.6g}", v);
    return *this;
  }
  Json& num(std::uint64_t v) {
    separate();
    out_ += fmt::format("{}", v);
    return *this;
  }
  Json& num(std::int64_t v) {
    separate();
    out_ += fmt::format("{}", v);
    return *this;
  }
  Json& boolean(bool v) {
    separate();
    out_ += v ? "true" : "false";
    return *this;
  }
  std::string take() { return std::move(out_) + "\n"; }

 private:
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
  void quote(std::string_view s) {
    out_ += '"';
    for (char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += c;
      } else if (u < 0x20) {
        out_ += fmt::format("\\u{:04x}", static_cast<unsigned>(u));
      } else {
        out_ += c;
      }
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

void medium_json(Json& j, const MediumStats& m, const std::vector<std::string>& names) {
  auto traffic = [&j](const NodeTraffic& t) {
    j.open('{');
    for (std::size_t k = 0; k < engine::kTrafficKinds; ++k)
      j.key(fmt::format("{}_bytes", engine::traffic_kind_name(static_cast<engine::TrafficKind>(k))))
          .num(t.on_air[k].bytes);
    j.key("bytes").num(t.on_air_bytes());
    j.key("header_bytes").num(t.header_bytes);
    j.key("datagrams").num(t.on_air_datagrams());
    j.key("offered").num(t.offered.datagrams);
    j.key("queue_dropped").num(t.queue_dropped.datagrams);
    j.key("received").num(t.received.datagrams);
    j.key("lost").num(t.lost.datagrams);
    j.key("max_queue").num(static_cast<std::uint64_t>(t.max_queue));
    j.key("airtime_s").num(seconds(t.airtime));
    j.close('}');
  };
  j.key("medium").open('{');
  j.key("nodes").open('[');
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    j.open('{');
    j.key("name").str(i < names.size() ? names[i] : fmt::format("n{}", i));
    j.key("traffic");
    traffic(m.nodes[i]);
    j.close('}');
  }
  j.close(']');
  j.key("total");
  traffic(m.total);
  j.close('}');
}

void run_json(Json& j, const RunSummary& s, const std::vector<std::string>& names) {
  j.key("finished_s").num(seconds(s.finished_at));
  j.key("all_complete").boolean(s.all_complete);
  j.key("trace_hash").str(fmt::format("{:016x}", s.trace_hash));
  medium_json(j, s.medium, names);
  j.key("engine").open('[');
  for (std::size_t i = 0; i < s.node_stats.size(); ++i) {
    const engine::Stats& e = s.node_stats[i];
    j.open('{');
    j.key("name").str(i < names.size() ? names[i] : fmt::format("n{}", i));
    j.key("mfrs_sent").num(e.mfrs_sent);
    j.key("mfr_rounds_gated").num(e.mfr_rounds_gated);
    j.key("mfrs_received").num(e.mfrs_received);
    j.key("repairs_queued").num(e.repairs_queued);
    j.key("repairs_suppressed_ntm").num(e.repairs_suppressed_ntm);
    j.key("forwards_queued").num(e.forwards_queued);
    j.key("forwards_suppressed_ntm").num(e.forwards_suppressed_ntm);
    j.key("summaries_sent").num(e.summaries_sent);
    j.key("pushes_sent").num(e.pushes_sent);
    j.key("pushes_suppressed_ntm").num(e.pushes_suppressed_ntm);
    j.key("coded_received").num(e.coded_received);
    j.key("coded_innovative").num(e.coded_innovative);
    j.key("blocks_decoded").num(e.blocks_decoded);
    j.key("fragments_decoded").num(e.fragments_decoded);
    j.key("coded_redundant").num(e.coded_redundant);
    j.key("coded_generated").num(e.coded_generated);
    j.key("coded_recoded").num(e.coded_recoded);
    j.key("parity_sent").num(e.parity_sent);
    j.key("duplicate_fragments").num(e.duplicate_fragments);
    j.key("queue_drops").num(e.queue_drops);
    j.key("malformed").num(e.malformed_total());
    j.close('}');
  }
  j.close(']');
  j.key("sim").open('{');
  j.key("events").num(s.sim.events_run);
  j.key("timer_events").num(s.sim.timer_events);
  j.key("timer_stalls").num(s.sim.timer_stalls);
  j.key("radio_full").num(s.sim.radio_full);
  j.close('}');
}

void receivers_json(Json& j, const std::vector<ReceiverOutcome>& rs, const std::vector<std::string>& names) {
  j.open('[');
  for (const auto& r : rs) {
    j.open('{');
    j.key("name").str(names[r.node]);
    j.key("messages").num(static_cast<std::uint64_t>(r.messages));
    j.key("bytes").num(r.bytes);
    j.key("complete").boolean(r.complete);
    j.key("delivery_s").num(r.complete ? seconds(r.completed_at) : -1.0);
    j.key("duplicate_deliveries").num(static_cast<std::uint64_t>(r.duplicate_deliveries));
    j.close('}');
  }
  j.close(']');
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
  j.open('{');
  j.key("experiment").str("baseline");
  j.key("params").open('{');
  j.key("receivers").num(static_cast<std::uint64_t>(p.receivers));
  j.key("capacity_kbps").num(p.capacity_kbps);
  j.key("capacity_bps").num(r.capacity_bps);
  j.key("reliability_pct").num(p.reliability_pct);
  j.key("bytes").num(p.bytes);
  j.key("message_size").num(p.message_size);
  j.key("messages").num(static_cast<std::uint64_t>(r.messages));
  j.key("seed").num(p.seed);
  j.key("shared_channel").boolean(p.shared_channel);
  j.close('}');
  j.key("lower_bound_s").num(r.lower_bound_s);
  j.key("mean_delivery_s").num(r.mean_delivery_s);
  j.key("total_bytes").num(r.run.medium.total.on_air_bytes());
  j.key("total_bytes_with_headers").num(r.run.medium.total.on_air_bytes() + r.run.medium.total.header_bytes);
  j.key("receivers");
  receivers_json(j, r.receivers, names);
  run_json(j, r.run, names);
  j.close('}');
  return j.take();
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
  j.open('{');
  j.key("experiment").str("tactical");
  j.key("params").open('{');
  j.key("sender_reliability_pct").num(p.sender_reliability_pct);
  j.key("message_size").num(static_cast<std::uint64_t>(p.message_size));
  j.key("asymmetric").boolean(p.asymmetric);
  j.key("window_s").num(seconds(p.window));
  j.key("settle_s").num(seconds(p.settle));
  j.key("sender_capacity_kbps").num(p.sender_capacity_kbps);
  j.key("ground_capacity_kbps").num(p.ground_capacity_kbps);
  j.key("ground_reliability_pct").num(p.ground_reliability_pct);
  j.key("ground_nodes").num(static_cast<std::uint64_t>(p.ground_nodes));
  j.key("subscribers").num(static_cast<std::uint64_t>(p.subscribers));
  j.key("seed").num(p.seed);
  j.key("shared_channel").boolean(p.shared_channel);
  j.close('}');
  j.key("messages_sent").num(static_cast<std::uint64_t>(r.messages_sent));
  j.key("mean_received").num(r.mean_received);
  j.key("success_pct").num(r.success_pct);
  j.key("sender_overhead_per_msg").num(r.sender_overhead_per_msg);
  j.key("sender_overhead_wire_per_msg").num(r.sender_overhead_wire_per_msg);
  j.key("p2p_overhead_per_msg").num(r.p2p_overhead_per_msg);
  j.key("p2p_overhead_wire_per_msg").num(r.p2p_overhead_wire_per_msg);
  j.key("subscribers");
  receivers_json(j, r.subscribers, names);
  run_json(j, r.run, names);
  j.close('}');
  return j.take();
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

std::string scenario_json(const ScenarioResult& r) {
  std::vector<std::string> names;
  for (const auto& n : r.nodes) names.push_back(n.name);
  Json j;
  j.open('{');
  j.key("experiment").str("scenario");
  j.key("source").str(r.source);
  j.key("seed").num(r.seed);
  j.key("nodes").open('[');
  for (const auto& n : r.nodes) {
    j.open('{');
    j.key("name").str(n.name);
    j.key("expected").num(static_cast<std::uint64_t>(n.expected));
    j.key("delivered").num(static_cast<std::uint64_t>(n.delivered));
    j.key("bytes").num(n.bytes);
    j.key("complete").boolean(n.complete);
    j.key("complete_s").num(n.complete ? seconds(n.completed_at) : -1.0);
    j.key("duplicate_deliveries").num(static_cast<std::uint64_t>(n.duplicate_deliveries));
    j.key("mean_latency_s").num(n.mean_latency_s);
    j.key("max_latency_s").num(n.max_latency_s);
    j.close('}');
  }
  j.close(']');
  const ScenarioMetrics& m = r.metrics;
  j.key("metrics").open('{');
  j.key("expected").num(static_cast<std::uint64_t>(m.expected));
  j.key("delivered").num(static_cast<std::uint64_t>(m.delivered));
  j.key("delivery_ratio").num(m.delivery_ratio);
  j.key("mean_latency_s").num(m.mean_latency_s);
  j.key("max_latency_s").num(m.max_latency_s);
  j.key("complete_s").num(m.complete_at >= 0 ? seconds(m.complete_at) : -1.0);
  j.key("last_change_s").num(m.last_change_at >= 0 ? seconds(m.last_change_at) : -1.0);
  j.key("full_delivery_after_last_change_s")
      .num(m.complete_at >= 0 && m.last_change_at >= 0 ? seconds(std::max<Micros>(m.complete_at - m.last_change_at, 0))
                                                       : -1.0);
  j.key("fragment_transmissions").num(m.fragment_transmissions);
  j.key("fragment_transmissions_after_last_change").num(m.fragment_transmissions_after_change);
  j.key("duplicate_fragments_after_last_change").num(m.duplicate_fragments_after_change);
  j.key("transmissions_per_delivery").num(m.transmissions_per_delivery);
  j.key("datagrams").num(m.datagrams);
  j.key("forwards").num(m.forwards);
  j.key("pushes").num(m.pushes);
  j.key("summaries").num(m.summaries);
  j.key("duplicate_fragments").num(m.duplicate_fragments);
  j.key("duplicate_deliveries").num(static_cast<std::uint64_t>(m.duplicate_deliveries));
  j.close('}');
  run_json(j, r.run, names);
  j.close('}');
  return j.take();
}

}  // namespace dissem::sim
