// A scenario's topology expanded for one cell and seed: the links at t = 0,
// the timeline of link events (the shorthand's own changes, timed changes
// and random outages folded in), Gilbert-Elliott burst loss per link, and
// whether pairs the topology does not name are disconnected. The one
// expansion of the scenario language: dissem-sim runs it, and the runner
// asks `dissem-sim expand` for it before driving dissem-emu or EMANE.
//
// Only the shorthand's links exist. Overrides and timed changes modify
// existing links (one that matches none is an error: it is almost always a
// typo); "enabled = false" disables the matched directions, "asymmetric =
// true" the reverse of each matched direction.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "scenario/geometric_graph.h"
#include "scenario/link_event.h"
#include "scenario/outages.h"
#include "scenario/topology_spec.h"
#include "scenario/value.h"

namespace dissem::scenario {

struct GilbertLink {
  double p_good_to_bad = 0;
  double p_bad_to_good = 0;
  double loss_in_bad = 0;  // a probability (the scenario writes percent)
};

struct Expansion {
  std::map<Pair, LinkParams> links;  // the state at t = 0
  std::vector<LinkEvent> events;     // sorted by time, sender, receiver
  bool default_disconnected = false;
  std::map<Pair, GilbertLink> gilbert;
  std::map<Pair, Spans> outages;          // the random outages drawn for this run
  std::optional<GeometricGraph> graph;    // kind = "geometric": the drawing
};

// The links of the shorthand (both directions of each), and for a geometric
// topology its drawing.
std::set<Pair> shorthand_links(const TopologySpec& spec, std::size_t nodes, std::optional<GeometricGraph>* graph);

// `names`: the cell's placeholder values (cell.h); outages are drawn up to
// horizon_s (none without it). Throws ScenarioError naming the key.
Expansion expand(const TopologySpec& spec, const Names& names, std::size_t nodes, std::uint64_t seed,
                 std::optional<double> horizon_s);

}  // namespace dissem::scenario
