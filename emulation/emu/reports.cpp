#include "reports.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "json.h"

namespace dissem::emu {
namespace {

std::string gilbert_fields(const GilbertParams& g) {
  return fmt::format("\"p_good_to_bad\": {}, \"p_bad_to_good\": {}, \"loss_in_bad\": {}", g.p_good_to_bad,
                     g.p_bad_to_good, g.loss_in_bad);
}

double seconds(TimeNs t) { return static_cast<double>(t) / static_cast<double>(kNsPerSecond); }

std::string optional_string(const std::optional<std::string>& s) { return s ? json_string(*s) : "null"; }

std::string config_json(const EmuOptions& o) {
  std::string radio = "[";
  for (std::size_t i = 0; i < o.radio_bps.size(); ++i) radio.append(i ? ", " : "").append(std::to_string(o.radio_bps[i]));
  radio.append("]");
  const std::string gilbert = o.gilbert ? fmt::format("{{{}}}", gilbert_fields(*o.gilbert)) : "null";
  std::string links = "[";
  for (std::size_t i = 0; i < o.link_gilbert.size(); ++i) {
    const LinkGilbert& g = o.link_gilbert[i];
    links.append(i ? ", " : "")
        .append(fmt::format("{{\"from\": {}, \"to\": {}, {}}}", g.sender, g.receiver, gilbert_fields(g.params)));
  }
  links.append("]");
  const std::string half_duplex =
      o.half_duplex.bps > 0
          ? fmt::format("{{\"bps\": {}, \"turnaround_s\": {}, \"max_hold_s\": {}}}", o.half_duplex.bps,
                        seconds(o.half_duplex.turnaround), seconds(o.half_duplex.max_hold))
          : "null";
  return fmt::format(
      "{{\"prefix\": {}, \"nodes\": {}, \"subnet\": {}, \"eel\": {}, \"seed\": {}, \"queue_packets\": {}, "
      "\"radio_bps\": {}, \"shared_channel_bps\": {}, \"half_duplex\": {}, \"gilbert\": {}, "
      "\"gilbert_links\": {}, \"default_connected\": {}, "
      "\"overhead_bytes\": {}, \"pcap_dir\": {}, \"duration_s\": {}, \"ipv6\": false}}",
      json_string(o.prefix), o.nodes, json_string(o.subnet.to_string()), optional_string(o.eel_path), o.seed,
      o.queue_packets, radio, o.shared_channel_bps, half_duplex, gilbert, links,
      o.default_disconnected ? "false" : "true",
      o.overhead_bytes, optional_string(o.pcap_dir), o.duration_s ? fmt::format("{}", *o.duration_s) : "null");
}

}  // namespace

std::string ready_line(const EmuOptions& options, const std::vector<NodeInfo>& nodes) {
  std::string out = fmt::format("{{\"ready\": true, \"prefix\": {}, \"subnet\": {}, \"broadcast\": {}, \"nodes\": [",
                                json_string(options.prefix), json_string(options.subnet.to_string()),
                                json_string(format_ipv4(options.subnet.broadcast())));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& n = nodes[i];
    out.append(i ? ", " : "");
    out.append(fmt::format(
        "{{\"id\": {}, \"namespace\": {}, \"interface\": {}, \"address\": {}, \"mac\": {}}}", n.id,
        json_string(n.namespace_name), json_string(kNodeInterface), json_string(n.address),
        json_string(format_mac(n.mac))));
  }
  out.append("]}");
  return out;
}

std::string stats_json(const EmuOptions& options, const LinkModel& model, const RunSummary& run) {
  std::string ignored = "{";
  bool first = true;
  for (const auto& [type, count] : run.ignored_eel_events) {
    ignored.append(first ? "" : ", ").append(json_string(type)).append(": ").append(std::to_string(count));
    first = false;
  }
  ignored.append("}");
  std::string out = fmt::format(
      "{{\"emulator\": \"dissem-emu\", \"schema\": 1, \"seed\": {},\n\"config\": {},\n"
      "\"run\": {{\"duration_s\": {:.6f}, \"origin_unix_s\": {:.6f}, \"stopped_by\": {}, \"eel_events\": {}, \"eel_events_applied\": {}, "
      "\"eel_events_pending\": {}, \"ignored_eel_events\": {}, \"scheduling\": {}, \"half_duplex_turnarounds\": {}}},\n",
      options.seed, config_json(options), static_cast<double>(run.ran) / static_cast<double>(kNsPerSecond),
      static_cast<double>(run.origin_unix) / static_cast<double>(kNsPerSecond),
      json_string(run.stopped_by), run.eel_events, run.eel_events_at_start + model.effect_changes_applied(),
      model.effect_changes_pending(), ignored, json_string(run.scheduling), model.half_duplex_turnarounds());
  out.append(model.counters().json_members());
  out.append("}\n");
  return out;
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
