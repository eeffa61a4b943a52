#include "scenario/emulator_spec.h"

#include "scenario/scenario_error.h"

namespace dissem::scenario {

EmulatorSpec read_emulator(const TableReader& top, const NodeSet& nodes, const std::set<std::string>& names) {
  return read_emulator_table(top.table("emulator"), "emulator", top.source(), nodes, names);
}

EmulatorSpec read_emulator_table(const toml::table* table, const std::string& where, const std::string& source,
                                 const NodeSet& nodes, const std::set<std::string>& names) {
  static const toml::table empty;
  const TableReader t(table != nullptr ? *table : empty, where, source,
                      {"queue_packets", "radio_bps", "radio_bps_node", "shared_channel_bps", "gilbert", "half_duplex_bps",
                       "turnaround_ms", "max_hold_ms", "pcap", "ready_timeout_s", "stop_timeout_s", "duration_margin_s",
                       "extra_args"},
                      TableReader::Style::Dotted);
  using Kind = Param::Kind;
  EmulatorSpec e;
  e.queue_packets = read_param(t, "queue_packets", names, Kind::Integer, {1.0, std::nullopt});
  e.radio_bps = read_param(t, "radio_bps", names, Kind::Number, {0.0, std::nullopt});
  if (const toml::table* per_node = t.table("radio_bps_node")) {
    for (auto&& [k, v] : *per_node) {
      const std::string key = t.path("radio_bps_node") + "." + std::string(k.str());
      const Param p = make_param(t, v, key, names, Kind::Number, {0.0, std::nullopt});
      for (int id : nodes.select({std::string(k.str())}, t.source(), key)) e.radio_bps_node.insert_or_assign(id, p);
    }
  }
  e.shared_channel_bps = read_param(t, "shared_channel_bps", names, Kind::Number, {0.0, std::nullopt});
  e.gilbert = read_gilbert(t, names);
  e.half_duplex_bps = read_param(t, "half_duplex_bps", names, Kind::Number, {1.0, std::nullopt});
  e.turnaround_ms = read_param(t, "turnaround_ms", names, Kind::Number, {0.0, std::nullopt});
  e.max_hold_ms = read_param(t, "max_hold_ms", names, Kind::Number, {0.0, std::nullopt});
  if (!e.half_duplex_bps && (e.turnaround_ms || e.max_hold_ms))
    t.fail(e.turnaround_ms ? "turnaround_ms" : "max_hold_ms", "only applies with half_duplex_bps (the half-duplex channel)");
  if (e.half_duplex_bps && (e.shared_channel_bps || e.radio_bps || !e.radio_bps_node.empty()))
    t.fail("half_duplex_bps", "excludes radio_bps, radio_bps_node and shared_channel_bps "
                              "(the half-duplex channel is every node's radio)");
  e.pcap = t.boolean("pcap").value_or(false);
  for (const char* key : {"ready_timeout_s", "stop_timeout_s", "duration_margin_s"})
    if (auto v = t.number(key); v && *v < 0) t.fail(key, "must be >= 0");
  for (const auto& arg : t.strings("extra_args")) {
    try {
      e.extra_args.emplace_back(arg).check_names(names);
    } catch (const TemplateError& err) {
      t.fail("extra_args", err.what());
    }
  }
  return e;
}

}  // namespace dissem::scenario
