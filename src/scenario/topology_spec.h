// [topology] of a scenario, read and checked: a shorthand (full, line, grid,
// partition-heal, geometric) or literal EEL, the link defaults, per-pair
// overrides, timed changes, random outages and Gilbert-Elliott burst loss.
// Values may be templates resolved per cell (param.h). expansion.h turns
// it into links and a timeline. The keys are those of emulation/README.md.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scenario/node_set.h"
#include "scenario/param.h"
#include "scenario/table_reader.h"
#include "scenario/template_text.h"

namespace dissem::scenario {

// The link keys of the topology, overrides and timed changes.
inline constexpr std::array<const char*, 5> kLinkKeys = {"capacity_bps", "reliability", "latency_ms", "jitter_ms",
                                                          "dup_pct"};
using LinkValues = std::map<std::string, Param>;  // link key -> its parameter
using Gilbert = std::array<Param, 3>;             // p_good_to_bad, p_bad_to_good, loss_pct_in_bad

// An override ([[topology.override]]) or a timed change ([[topology.event]]).
struct Change {
  std::string key;  // "topology.override[1]"
  std::set<int> senders;
  std::set<int> receivers;
  LinkValues link;
  std::optional<Param> enabled;
  std::optional<Param> asymmetric;  // overrides only
  std::optional<Param> at_s;        // timed changes only
  std::optional<Gilbert> gilbert;   // overrides only
  // Overrides only: each matched link draws its own reliability, uniform in
  // [lo, hi], from the run's seed (expansion.cpp): per-link loss that
  // differs from seed to seed, the same in every engine.
  std::optional<std::array<Param, 2>> reliability_range;
};

// [[topology.outage]]: an alternating renewal process per matched link (outages.h).
struct OutageSpec {
  std::string key;
  std::set<int> senders;
  std::set<int> receivers;
  Param mean_up_s;
  Param mean_down_s;
  Param start_s;
  bool both_directions = true;
};

struct TopologySpec {
  std::string source;
  std::string kind;  // full, line, grid, partition-heal, geometric, eel
  LinkValues defaults;
  std::size_t rows = 0;  // grid
  std::size_t cols = 0;
  std::pair<int, int> clusters{0, 0};  // partition-heal: the two sizes
  std::pair<int, int> bridge{0, 0};    // and the bridge's two nodes
  std::optional<Param> partition_at_s;
  std::optional<Param> heal_at_s;
  std::optional<double> radius;  // geometric: link range in the unit square,
  std::optional<double> degree;  // or the target mean degree
  std::uint64_t graph_seed = 1;  // geometric: the drawing's seed (not the run's)
  std::optional<TemplateText> eel_text;  // eel: the literal text (inline or from eel_file)
  std::string eel_key;
  std::string eel_convention = "sender-first";
  std::optional<Param> default_disconnected;
  std::optional<Gilbert> gilbert;  // every link of the shorthand
  std::vector<Change> overrides;
  std::vector<Change> events;
  std::vector<OutageSpec> outages;
  // [networks]' node sets (empty: one network of every node). A link joins
  // two nodes that share one of them.
  std::vector<std::set<int>> networks;
};

// `gilbert` of the table: [p_good_to_bad, p_bad_to_good, loss_pct_in_bad], or "a,b,c".
std::optional<Gilbert> read_gilbert(const TableReader& t, const std::set<std::string>& names);

// Reads [topology] from the top level; `names`: the placeholders known per cell.
TopologySpec read_topology(const TableReader& top, const NodeSet& nodes, const std::set<std::string>& names,
                           const std::filesystem::path& scenario_dir);

}  // namespace dissem::scenario
