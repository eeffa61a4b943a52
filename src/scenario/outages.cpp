#include "scenario/outages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/random.h"
#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

constexpr std::uint64_t kOutageStream = 0x6f75746167650000ULL;  // "outage"

double round6(double x) { return std::nearbyint(x * 1e6) / 1e6; }

double exponential(Random& rng, double mean) { return -mean * std::log1p(-rng.uniform()); }

Spans draw(std::uint64_t seed, std::size_t index, Pair pair, double mean_up, double mean_down, double start,
           double horizon, const std::string& source, const std::string& key) {
  std::uint64_t s = derive_seed(seed, kOutageStream + index);
  s = derive_seed(s, static_cast<std::uint64_t>(pair.first));
  Random rng(derive_seed(s, static_cast<std::uint64_t>(pair.second)));
  Spans out;
  double t = start;
  for (;;) {
    t += exponential(rng, mean_up);
    if (t >= horizon) return out;
    const double end = t + exponential(rng, mean_down);
    out.emplace_back(round6(t), round6(end));
    if (out.size() > kMaxOutagesPerLink)
      fail(source, key, fmt::format("more than {} outages per link before {:g} s: check mean_up_s and mean_down_s",
                                    kMaxOutagesPerLink, horizon));
    t = end;
  }
}

Spans merged(Spans spans) {
  std::sort(spans.begin(), spans.end());
  Spans out;
  for (const auto& [s, e] : spans) {
    if (!out.empty() && s <= out.back().second)
      out.back().second = std::max(out.back().second, e);
    else
      out.emplace_back(s, e);
  }
  return out;
}

bool is_down(const Spans& spans, double t) {
  return std::any_of(spans.begin(), spans.end(), [t](const auto& s) { return s.first <= t && t < s.second; });
}

// One link's events (in time order) with its outages folded in.
std::vector<LinkEvent> fold(Pair pair, const std::vector<LinkEvent>& own, const Spans& spans) {
  const auto in_force = [&](double t) {
    LinkParams current;
    for (const auto& e : own) {
      if (e.time_s > t) break;
      current = e.params;
    }
    return current;
  };
  std::vector<LinkEvent> out;
  for (const auto& e : own) out.push_back({e.time_s, pair.first, pair.second, is_down(spans, e.time_s) ? e.params.disable() : e.params});
  // At equal times the outage boundary wins over an event of the same instant (written after it).
  for (const auto& [s, e] : spans) {
    out.push_back({s, pair.first, pair.second, in_force(s).disable()});
    out.push_back({e, pair.first, pair.second, is_down(spans, e) ? in_force(e).disable() : in_force(e)});
  }
  return out;
}

}  // namespace

std::map<Pair, Spans> outage_intervals(const std::vector<OutageSpec>& specs, const std::set<Pair>& links,
                                       const Names& names, std::uint64_t seed, double horizon_s,
                                       const std::string& source) {
  std::map<Pair, Spans> per_link;
  for (std::size_t index = 0; index < specs.size(); ++index) {
    const OutageSpec& spec = specs[index];
    std::vector<Pair> matched;
    for (const Pair& p : links)
      if (spec.senders.contains(p.first) && spec.receivers.contains(p.second)) matched.push_back(p);
    if (matched.empty()) fail(source, spec.key, "matches no link of the topology");
    const double up = spec.mean_up_s.number(names);
    const double down = spec.mean_down_s.number(names);
    const double start = spec.start_s.number(names);
    std::set<Pair> done;
    for (const Pair& pair : matched) {
      if (done.contains(pair)) continue;
      const Pair canonical = spec.both_directions ? Pair{std::min(pair.first, pair.second), std::max(pair.first, pair.second)} : pair;
      const Spans drawn = draw(seed, index, canonical, up, down, start, horizon_s, source, spec.key);
      std::vector<Pair> targets = {pair};
      const Pair reverse{pair.second, pair.first};
      if (spec.both_directions && links.contains(reverse)) targets.push_back(reverse);
      for (const Pair& p : targets) {
        auto& spans = per_link[p];
        spans.insert(spans.end(), drawn.begin(), drawn.end());
        done.insert(p);
      }
    }
  }
  for (auto& [pair, spans] : per_link) spans = merged(std::move(spans));
  return per_link;
}

std::vector<LinkEvent> apply_outages(const std::vector<LinkEvent>& events, const std::map<Pair, Spans>& down) {
  if (down.empty()) return events;
  std::map<Pair, std::vector<LinkEvent>> by_link;
  std::vector<LinkEvent> out;
  for (const auto& e : events) {
    const Pair p{e.sender, e.receiver};
    if (down.contains(p))
      by_link[p].push_back(e);
    else
      out.push_back(e);
  }
  for (const auto& [pair, spans] : down) {
    auto own = by_link[pair];
    std::stable_sort(own.begin(), own.end(), [](const LinkEvent& a, const LinkEvent& b) { return a.time_s < b.time_s; });
    const auto folded = fold(pair, own, spans);
    out.insert(out.end(), folded.begin(), folded.end());
  }
  sort_events(out);
  return out;
}

}  // namespace dissem::scenario
