// The multi-hop and disruption-tolerant experiments as scenarios: a line of
// nodes that each hear only their neighbours, a grid, two clusters that are
// partitioned and then healed, and a node that joins late. Each builder
// returns a plain Scenario (scenario_file.h), so the same topology can be
// run (run_scenario), saved as TOML (scenario_toml) and re-expressed on the
// emulator. Node names: n1..nN (line), r<row>c<col> (grid), a1..aK and
// b1..bK (partition), n1..nN and "late" (late join), g1..gN (geometric).
//
// Subscribers (but the late joiner) ask for their publishers' whole streams
// (history = messages): a node several hops out, or across a partition, may
// first hear of a stream at its k-th message, and DisService's default
// (nothing before the first message heard) would then leave out the first
// k-1 by design. The figures are then about forwarding and replication, not
// about that default.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "controllers/controller_settings.h"
#include "scenario/geometric_graph.h"
#include "sim/scenario_file.h"

namespace dissem::sim {

// What every topology shares.
struct TopologyCommon {
  std::uint64_t seed = 1;
  double capacity_kbps = 1024;  // every node (1 kbit = 1024 bit)
  double reliability_pct = 100;
  Micros latency = 2 * kMillis;
  Micros jitter = 1 * kMillis;
  std::uint32_t message_size = 1024;
  std::size_t messages = 20;           // per publisher
  Micros interval = 500 * kMillis;     // between a publisher's messages
  Micros duration = 300 * kSeconds;    // stop here at the latest
  controllers::ControllerSettings controllers;  // every node's
};

// n1 - n2 - ... - nN; n1 publishes, nN subscribes (all_subscribe: every other node).
struct LineParams {
  TopologyCommon common;
  std::size_t nodes = 5;
  bool all_subscribe = false;
};
Scenario make_line(const LineParams& p);

// side x side, each node hears its 4 neighbours; the corner r0c0 publishes.
enum class GridSubscribers { Row, FarCorner, All };
struct GridParams {
  TopologyCommon common;
  std::size_t side = 5;
  GridSubscribers subscribers = GridSubscribers::Row;  // Row: the publisher's row
};
Scenario make_grid(const GridParams& p);

// Two fully connected clusters a1..aK and b1..bK joined only by aK <-> b1,
// which is down from the start until `heal_at`. Every node subscribes; a1
// and bK each publish `messages` while the clusters are apart.
struct PartitionParams {
  TopologyCommon common;
  std::size_t cluster = 4;
  Micros heal_at = 30 * kSeconds;
  double bridge_reliability_pct = 100;
  // Subscribers' history; nullopt: the whole stream (see above). 0 is
  // DisService's default, nothing before the first message heard.
  std::optional<std::uint32_t> history;
};
Scenario make_partition(const PartitionParams& p);

// A fully connected group n1..nN; n1 publishes, every node subscribes. A
// node "late" is out of range until `join_at`, then hears everyone and
// subscribes asking for `history` prior messages.
struct LateJoinParams {
  TopologyCommon common;
  std::size_t nodes = 4;
  Micros join_at = 30 * kSeconds;
  std::uint32_t history = 10;
};
Scenario make_late_join(const LateJoinParams& p);

// A random geometric graph (scenario/geometric_graph.h): `nodes` radios spread
// uniformly over a square field, in range of each other within the radius
// that gives `degree` neighbours on average; connected. The node nearest a
// corner of the field publishes; `subscribers_pct` of the others, drawn from
// the seed (at least one), subscribe. `start`: the first publication, after
// beacons have spread interest (subscription-aware forwarding needs it).
struct GeometricParams {
  TopologyCommon common;
  std::size_t nodes = 100;
  double degree = 9;
  double subscribers_pct = 100;
  Micros start = 5 * kSeconds;
};
// `graph`, when given, receives the graph the scenario was built on.
Scenario make_geometric(const GeometricParams& p, scenario::GeometricGraph* graph = nullptr);

}  // namespace dissem::sim
