#include "emulator_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "core/json.h"

namespace dissem::emu {
namespace {

Json gilbert_fields(const GilbertParams& g) {
  return {{"p_good_to_bad", g.p_good_to_bad}, {"p_bad_to_good", g.p_bad_to_good}, {"loss_in_bad", g.loss_in_bad}};
}

double seconds(TimeNs t) { return static_cast<double>(t) / static_cast<double>(kNsPerSecond); }

Json config_json(const EmuOptions& o) {
  Json links = Json::array();
  for (const LinkGilbert& g : o.link_gilbert) {
    Json link = {{"from", g.sender}, {"to", g.receiver}};
    link.update(gilbert_fields(g.params));
    links.push_back(std::move(link));
  }
  Json half_duplex = nullptr;
  if (o.half_duplex.bps > 0) {
    half_duplex = {{"bps", o.half_duplex.bps},
                   {"turnaround_s", seconds(o.half_duplex.turnaround)},
                   {"max_hold_s", seconds(o.half_duplex.max_hold)}};
  }
  Json j;
  j["prefix"] = o.prefix;
  j["nodes"] = o.nodes;
  j["subnet"] = o.subnet.to_string();
  j["eel"] = json_or_null(o.eel_path);
  j["seed"] = o.seed;
  j["queue_packets"] = o.queue_packets;
  j["radio_bps"] = o.radio_bps;
  j["shared_channel_bps"] = o.shared_channel_bps;
  j["half_duplex"] = std::move(half_duplex);
  j["gilbert"] = o.gilbert ? gilbert_fields(*o.gilbert) : Json(nullptr);
  j["gilbert_links"] = std::move(links);
  j["default_connected"] = !o.default_disconnected;
  j["overhead_bytes"] = o.overhead_bytes;
  j["pcap_dir"] = json_or_null(o.pcap_dir);
  j["duration_s"] = json_or_null(o.duration_s);
  j["ipv6"] = o.ipv6;
  j["interface"] = o.interface_name;
  Json joins = Json::object();
  for (const auto& [id, ns] : o.joins) joins[std::to_string(id)] = ns;
  j["joins"] = std::move(joins);
  return j;
}

Json run_json(const LinkModel& model, const RunSummary& run) {
  Json ignored = Json::object();
  for (const auto& [type, count] : run.ignored_eel_events) ignored[type] = count;
  Json j;
  j["duration_s"] = round_to_decimals(seconds(run.ran), 6);
  j["origin_unix_s"] = round_to_decimals(seconds(run.origin_unix), 6);
  j["stopped_by"] = run.stopped_by;
  j["eel_events"] = run.eel_events;
  j["eel_events_applied"] = run.eel_events_at_start + model.effect_changes_applied();
  j["eel_events_pending"] = model.effect_changes_pending();
  j["ignored_eel_events"] = std::move(ignored);
  j["scheduling"] = run.scheduling;
  j["half_duplex_turnarounds"] = model.half_duplex_turnarounds();
  return j;
}

}  // namespace

std::string ready_line(const EmuOptions& options, const std::vector<NodeInfo>& nodes) {
  Json list = Json::array();
  for (const NodeInfo& n : nodes) {
    list.push_back({{"id", n.id},
                    {"namespace", n.namespace_name},
                    {"interface", options.interface_name},
                    {"address", n.address},
                    {"mac", format_mac(n.mac)}});
  }
  Json j;
  j["ready"] = true;
  j["prefix"] = options.prefix;
  j["subnet"] = options.subnet.to_string();
  j["broadcast"] = format_ipv4(options.subnet.broadcast());
  j["nodes"] = std::move(list);
  return json_text(j);
}

std::string stats_json(const EmuOptions& options, const LinkModel& model, const RunSummary& run) {
  Json j;
  j["emulator"] = "dissem-emu";
  j["schema"] = 1;
  j["seed"] = options.seed;
  j["config"] = config_json(options);
  j["run"] = run_json(model, run);
  j.update(model.counters().json_members());
  return json_text(j) + "\n";
}

void write_file_atomically(const std::string& path, const std::string& content) {
  std::string temporary = path;
  temporary.append(".tmp");
  std::FILE* f = std::fopen(temporary.c_str(), "wb");
  if (!f) throw std::runtime_error(fmt::format("cannot create {}: {}", temporary, std::strerror(errno)));
  const bool written = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw std::runtime_error(fmt::format("cannot write {}", path));
  }
}

}  // namespace dissem::emu
