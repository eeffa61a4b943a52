#include "scenario/expansion.h"

#include <fmt/format.h>

#include <stdexcept>

#include "core/random.h"

#include "scenario/eel_reader.h"
#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

using Values = std::map<std::string, double>;  // link key -> value

Values resolved(const LinkValues& params, const Names& names) {
  Values out;
  for (const auto& [key, p] : params) out[key] = p.number(names);
  return out;
}

LinkParams to_link(const Values& v) {
  return LinkParams::from_scenario(v.at("capacity_bps"), v.at("reliability"), v.at("latency_ms"), v.at("jitter_ms"),
                                   v.at("dup_pct"));
}

GilbertLink resolve_gilbert(const Gilbert& g, const Names& names) {
  return {g[0].number(names), g[1].number(names), g[2].number(names) / 100.0};
}

// With [networks], whether `p` joins two nodes of one network.
bool on_one_network(const TopologySpec& spec, const Pair& p) {
  if (spec.networks.empty()) return true;
  for (const auto& members : spec.networks)
    if (members.contains(p.first) && members.contains(p.second)) return true;
  return false;
}

std::vector<Pair> matched(const Change& c, const std::set<Pair>& links, const TopologySpec& spec) {
  std::vector<Pair> out;
  for (const Pair& p : links)
    if (c.senders.contains(p.first) && c.receivers.contains(p.second)) out.push_back(p);
  if (out.empty()) fail(spec.source, c.key, fmt::format("matches no link of the {} topology", spec.kind));
  return out;
}

Expansion expand_literal(const TopologySpec& spec, const Names& names, std::size_t nodes) {
  Expansion x;
  try {
    x.events = read_eel(spec.eel_text->render(names), spec.eel_convention);
  } catch (const std::exception& e) {  // TemplateError or a malformed line
    fail(spec.source, spec.eel_key, e.what());
  }
  for (const auto& e : x.events) {
    if (static_cast<std::size_t>(std::max(e.sender, e.receiver)) > nodes)
      fail(spec.source, spec.eel_key,
           fmt::format("mentions nem:{} but the scenario has {} nodes", std::max(e.sender, e.receiver), nodes));
    if (!e.params.disabled() && !on_one_network(spec, {e.sender, e.receiver}))
      fail(spec.source, spec.eel_key,
           fmt::format("links nem:{} to nem:{}, which share no network of [networks]", e.sender, e.receiver));
  }
  sort_events(x.events);
  for (const auto& e : x.events)
    if (e.time_s == 0) x.links[{e.sender, e.receiver}] = e.params;
  const bool complete = x.links.size() == nodes * (nodes - 1);
  x.default_disconnected = spec.default_disconnected ? spec.default_disconnected->boolean(names) : !complete;
  return x;
}

// Random streams of a run's seed for per-link reliability draws, apart from
// the outages' (outages.cpp).
constexpr std::uint64_t kReliabilityStream = 0x72656c6961620000ULL;  // "reliab"

// Each link's own reliability in [lo, hi]: from the run's seed, the
// override's index and the link, so adding a link or an override never
// moves another's draw.
void draw_reliabilities(const Change& ov, std::size_t index, const Names& names, std::uint64_t seed,
                        const TopologySpec& spec, const std::vector<Pair>& pairs, std::map<Pair, Values>& values) {
  const double lo = (*ov.reliability_range)[0].number(names);
  const double hi = (*ov.reliability_range)[1].number(names);
  if (lo > hi) fail(spec.source, ov.key + ".reliability_range", fmt::format("[{:g}, {:g}]: lowest above highest", lo, hi));
  for (const Pair& p : pairs) {
    std::uint64_t s = derive_seed(seed, kReliabilityStream + index);
    s = derive_seed(s, static_cast<std::uint64_t>(p.first));
    Random rng(derive_seed(s, static_cast<std::uint64_t>(p.second)));
    values[p]["reliability"] = lo + (hi - lo) * rng.uniform();
  }
}

// The state at t = 0 after the overrides; `values` and `disabled` are what
// the timed changes start from.
void apply_overrides(const TopologySpec& spec, const Names& names, std::uint64_t seed, const std::set<Pair>& links,
                     std::map<Pair, Values>& values, std::set<Pair>& disabled, Expansion& x) {
  for (std::size_t i = 0; i < spec.overrides.size(); ++i) {
    const Change& ov = spec.overrides[i];
    const auto pairs = matched(ov, links, spec);
    const Values update = resolved(ov.link, names);
    for (const Pair& p : pairs) {
      if (ov.gilbert) x.gilbert[p] = resolve_gilbert(*ov.gilbert, names);
      for (const auto& [k, v] : update) values[p][k] = v;
    }
    if (ov.reliability_range) draw_reliabilities(ov, i, names, seed, spec, pairs, values);
    if (ov.enabled) {
      const bool on = ov.enabled->boolean(names);
      for (const Pair& p : pairs) on ? (void)disabled.erase(p) : (void)disabled.insert(p);
    }
    if (ov.asymmetric && ov.asymmetric->boolean(names))
      for (const Pair& p : pairs)
        if (links.contains({p.second, p.first})) disabled.insert({p.second, p.first});
  }
}

void partition_events(const TopologySpec& spec, const Names& names, Expansion& x) {
  const double cut = spec.partition_at_s->number(names);
  const double heal = spec.heal_at_s->number(names);
  if (heal <= cut)
    fail(spec.source, spec.heal_at_s->key(), fmt::format("{:g} is not after partition_at_s {:g}", heal, cut));
  const auto [a, b] = spec.bridge;
  for (const Pair& p : {Pair{a, b}, Pair{b, a}}) {
    x.events.push_back({cut, p.first, p.second, x.links.at(p).disable()});
    x.events.push_back({heal, p.first, p.second, x.links.at(p)});
  }
}

void timed_events(const TopologySpec& spec, const Names& names, const std::set<Pair>& links,
                  const std::map<Pair, Values>& values, const std::set<Pair>& disabled, Expansion& x) {
  for (const Change& ch : spec.events) {
    const auto pairs = matched(ch, links, spec);
    const double at = ch.at_s->number(names);
    const Values update = resolved(ch.link, names);
    const bool given = ch.enabled.has_value();
    const bool on = given && ch.enabled->boolean(names);
    for (const Pair& p : pairs) {
      Values v = values.at(p);
      for (const auto& [k, u] : update) v[k] = u;
      const LinkParams params = to_link(v);
      const bool off = given ? !on : disabled.contains(p);
      x.events.push_back({at, p.first, p.second, off ? params.disable() : params});
    }
  }
}

}  // namespace

Expansion expand(const TopologySpec& spec, const Names& names, std::size_t nodes, std::uint64_t seed,
                 std::optional<double> horizon_s) {
  if (spec.kind == "eel") return expand_literal(spec, names, nodes);
  Expansion x;
  std::set<Pair> links = shorthand_links(spec, nodes, &x.graph);
  std::erase_if(links, [&](const Pair& p) { return !on_one_network(spec, p); });
  const Values defaults = resolved(spec.defaults, names);
  std::map<Pair, Values> values;
  for (const Pair& p : links) values[p] = defaults;
  if (spec.gilbert) {
    const GilbertLink g = resolve_gilbert(*spec.gilbert, names);
    for (const Pair& p : links) x.gilbert[p] = g;
  }
  std::set<Pair> disabled;
  apply_overrides(spec, names, seed, links, values, disabled, x);
  for (const Pair& p : links) {
    x.links[p] = disabled.contains(p) ? to_link(values[p]).disable() : to_link(values[p]);
    x.events.push_back({0.0, p.first, p.second, x.links[p]});
  }
  if (spec.kind == "partition-heal") partition_events(spec, names, x);
  timed_events(spec, names, links, values, disabled, x);
  sort_events(x.events);
  if (!spec.outages.empty() && horizon_s) {
    x.outages = outage_intervals(spec.outages, links, names, seed, *horizon_s, spec.source);
    x.events = apply_outages(x.events, x.outages);
  }
  const bool complete = links.size() == nodes * (nodes - 1);
  x.default_disconnected = spec.default_disconnected ? spec.default_disconnected->boolean(names) : !complete;
  return x;
}

}  // namespace dissem::scenario
