// [emulator] of a scenario: the radios and channels around the links
// (dissem-emu's options), read and checked. dissem-sim models the radios,
// the shared channel, queues and burst loss; what it cannot (the
// half-duplex channel, dissem-emu's own options) it names.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scenario/node_set.h"
#include "scenario/param.h"
#include "scenario/table_reader.h"
#include "scenario/topology_spec.h"

namespace dissem::scenario {

struct EmulatorSpec {
  std::optional<Param> queue_packets;
  std::optional<Param> radio_bps;
  std::map<int, Param> radio_bps_node;  // node id -> its radio's rate
  std::optional<Param> shared_channel_bps;
  std::optional<Gilbert> gilbert;
  std::optional<Param> half_duplex_bps;
  std::optional<Param> turnaround_ms;
  std::optional<Param> max_hold_ms;
  bool pcap = false;
  std::vector<TemplateText> extra_args;
};

EmulatorSpec read_emulator(const TableReader& top, const NodeSet& nodes, const std::set<std::string>& names);

// The same keys from any table (nullptr: none set); `where` names it in errors.
EmulatorSpec read_emulator_table(const toml::table* table, const std::string& where, const std::string& source,
                                 const NodeSet& nodes, const std::set<std::string>& names);

}  // namespace dissem::scenario
