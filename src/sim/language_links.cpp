#include "sim/language_links.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "scenario/scenario_error.h"

namespace dissem::sim {
namespace {

using scenario::fail;
using scenario::Pair;

Micros micros(double seconds) { return static_cast<Micros>(std::llround(seconds * static_cast<double>(kSeconds))); }

LinkParams to_sim(const scenario::LinkParams& p, const std::optional<link::GilbertParams>& burst) {
  LinkParams l;
  l.enabled = !p.disabled();
  l.reliability = l.enabled ? 1.0 - p.loss_pct / 100.0 : 1.0;
  l.latency = micros(p.latency_s);
  l.jitter = micros(p.jitter_s);
  l.duplicate = p.dup_pct / 100.0;
  l.burst = burst;
  return l;
}

std::optional<double> resolved(const std::optional<scenario::Param>& p, const scenario::Names& names) {
  if (!p) return std::nullopt;
  return p->number(names);
}

void refuse_unsupported(const scenario::EmulatorSpec& e, const std::string& source) {
  if (e.half_duplex_bps) fail(source, "emulator.half_duplex_bps", "the simulator has no half-duplex channel (dissem-emu only)");
  if (!e.extra_args.empty()) fail(source, "emulator.extra_args", "dissem-emu's own options: the simulator cannot honour them");
}

// The rate of each node's one transmitter (see language_links.h).
std::vector<std::uint64_t> capacities(const Scenario& s, const scenario::Expansion& x, const scenario::EmulatorSpec& e,
                                      const scenario::Names& names, const std::vector<std::uint64_t>& fallback) {
  std::map<int, std::set<std::int64_t>> rates;  // sender -> the rates of its links, at any time
  for (const auto& ev : x.events) rates[ev.sender].insert(ev.params.unicast_bps);
  const double shared = resolved(e.shared_channel_bps, names).value_or(0);
  const double radio_all = resolved(e.radio_bps, names).value_or(0);
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    const int id = static_cast<int>(i + 1);
    const auto per_node = e.radio_bps_node.find(id);
    const double radio = shared > 0 ? shared : per_node != e.radio_bps_node.end() ? per_node->second.number(names) : radio_all;
    const auto& r = rates[id];
    const std::string who = fmt::format("node {} sends", s.nodes[i].name);
    if (radio > 0) {
      for (std::int64_t bps : r)
        if (bps > 0 && static_cast<double>(bps) < radio)
          fail(s.source, "topology.capacity_bps",
               fmt::format("{} on a link at {} bit/s, slower than its radio ({} bit/s): the simulator gives a node one "
                           "transmitter rate", who, bps, std::llround(radio)));
      out.push_back(static_cast<std::uint64_t>(std::llround(radio)));
    } else if (r.empty()) {
      out.push_back(fallback.at(i));
    } else if (r.size() > 1) {
      fail(s.source, "topology.capacity_bps",
           fmt::format("{} at {} bit/s on its links (or at different times): the simulator gives a node one transmitter "
                       "rate; give its radio one with [emulator] radio_bps", who, fmt::join(r, " and ")));
    } else if (*r.begin() == 0) {
      fail(s.source, "topology.capacity_bps",
           fmt::format("{} on links of unlimited capacity and has no radio: the simulator needs a transmitter rate "
                       "(capacity_bps or [emulator] radio_bps)", who));
    } else {
      out.push_back(static_cast<std::uint64_t>(*r.begin()));
    }
  }
  return out;
}

}  // namespace

void apply_language_links(Scenario& s, const scenario::Expansion& x, const scenario::EmulatorSpec& e,
                          const scenario::Names& names, const std::vector<bool>& runs_daemon,
                          const std::vector<std::uint64_t>& fallback_bps) {
  refuse_unsupported(e, s.source);
  const auto rates = capacities(s, x, e, names, fallback_bps);
  for (std::size_t i = 0; i < s.nodes.size(); ++i) s.nodes[i].capacity_bps = rates[i];
  s.medium.shared_channel = resolved(e.shared_channel_bps, names).value_or(0) > 0;
  if (e.queue_packets) s.medium.queue_packets = static_cast<std::size_t>(e.queue_packets->number(names));
  // As the emulator's links: the host hands over what its pacer releases; a full queue drops.
  s.medium.radio_backpressure = false;
  std::optional<link::GilbertParams> global;
  if (e.gilbert)
    global = link::GilbertParams{(*e.gilbert)[0].number(names), (*e.gilbert)[1].number(names),
                                 (*e.gilbert)[2].number(names) / 100.0};
  const auto burst = [&](Pair p) -> std::optional<link::GilbertParams> {
    const auto it = x.gilbert.find(p);
    if (it == x.gilbert.end()) return global;
    return link::GilbertParams{it->second.p_good_to_bad, it->second.p_bad_to_good, it->second.loss_in_bad};
  };
  const auto silent = [&](Pair p) {
    return !runs_daemon.at(static_cast<std::size_t>(p.first - 1)) || !runs_daemon.at(static_cast<std::size_t>(p.second - 1));
  };
  s.default_link = LinkParams{};
  s.default_link.enabled = !x.default_disconnected;
  std::map<Pair, scenario::LinkParams> start;  // after every event at t = 0, in order
  for (const auto& ev : x.events)
    if (ev.time_s == 0) start[{ev.sender, ev.receiver}] = ev.params;
  for (const auto& [pair, params] : start) {
    LinkParams l = to_sim(params, burst(pair));
    if (silent(pair)) l.enabled = false;
    s.links.push_back({static_cast<std::size_t>(pair.first - 1), static_cast<std::size_t>(pair.second - 1), l});
  }
  for (const auto& ev : x.events) {
    const Pair pair{ev.sender, ev.receiver};
    if (ev.time_s == 0 || silent(pair)) continue;
    s.link_changes.push_back({micros(ev.time_s), static_cast<std::size_t>(pair.first - 1),
                              static_cast<std::size_t>(pair.second - 1), to_sim(ev.params, burst(pair))});
  }
}

}  // namespace dissem::sim
