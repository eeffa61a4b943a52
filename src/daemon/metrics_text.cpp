#include "daemon/metrics_text.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/version.h"
#include "daemon/metrics_help.h"
#include "ipc/stats_json.h"

namespace dissem::daemon {

namespace {

struct Sample {
  std::string labels;  // `name="value",...` without braces; empty for none
  std::string value;
};

struct Family {
  std::string help;
  bool counter = true;
  std::vector<Sample> samples;
};

// Families in the order first met, so the text follows `dissem stats`.
class Families {
 public:
  void add(const std::string& name, const std::string& help, bool counter, Sample sample) {
    auto [it, fresh] = by_name_.try_emplace(name);
    if (fresh) {
      order_.push_back(name);
      it->second.help = help;
      it->second.counter = counter;
    }
    it->second.samples.push_back(std::move(sample));
  }

  std::string text() const {
    std::string out;
    for (const auto& name : order_) {
      const Family& f = by_name_.at(name);
      out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, escape_help(f.help), name,
                         f.counter ? "counter" : "gauge");
      for (const auto& s : f.samples)
        out += s.labels.empty() ? fmt::format("{} {}\n", name, s.value)
                                : fmt::format("{}{{{}}} {}\n", name, s.labels, s.value);
    }
    return out;
  }

 private:
  static std::string escape_help(const std::string& text) {
    std::string out;
    for (char c : text) {
      if (c == '\\') out += "\\\\";
      else if (c == '\n') out += "\\n";
      else out += c;
    }
    return out;
  }

  std::vector<std::string> order_;
  std::map<std::string, Family> by_name_;
};

// The counters that are levels, not totals.
const std::set<std::string>& gauges() {
  static const std::set<std::string> g = {"cache.bytes", "cache.messages", "process.rss_bytes",
                                          "process.peak_rss_bytes", "silent", "cache.paused",
                                          "clock.divergence_seconds"};
  return g;
}

std::string help_for(const std::string& path) {
  const auto help = metric_help(path);
  return help ? std::string(*help) : "dissem stats: " + path;
}

std::string number(const Json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  return fmt::format("{}", v.get<double>());
}

std::string name_of(const std::string& path) {
  std::string name = "dissem_";
  for (char c : path) name += (c == '.' || c == '-') ? '_' : c;
  return name;
}

// One leaf of stats_json under `path` (dots between the members).
void add_leaf(Families& out, const std::string& path, const Json& v) {
  const bool gauge = gauges().contains(path);
  out.add(name_of(path) + (gauge ? "" : "_total"), help_for(path), !gauge, {"", number(v)});
}

void add_counters(Families& out, const Json& stats) {
  for (const auto& [section, value] : stats.items()) {
    if (section == "links") continue;  // links of their own: dissem stats --json has them; the main link's here
    if (section == "traffic") {
      for (const auto& [kind, directions] : value.items())
        for (const auto& [direction, units] : directions.items())
          for (const auto& [unit, n] : units.items()) {
            const std::string path = "traffic.*." + direction + "." + unit;
            out.add(fmt::format("dissem_traffic_{}_{}_total", direction, unit), help_for(path), true,
                    {metric_label("kind", kind), number(n)});
          }
    } else if (section == "malformed" || section == "integrity") {
      const bool malformed = section == "malformed";
      for (const auto& [reason, n] : value.items()) {
        if (reason == "total") continue;  // the family's sum
        out.add(malformed ? "dissem_malformed_datagrams_total" : "dissem_integrity_events_total",
                help_for(section + ".*"), true, {metric_label(malformed ? "reason" : "event", reason), number(n)});
      }
    } else if (value.is_object()) {
      for (const auto& [field, n] : value.items()) add_leaf(out, section + "." + field, n);
    } else {
      add_leaf(out, section, value);
    }
  }
}

void add_peers(Families& out, const std::vector<ipc::PeerInfo>& peers) {
  out.add("dissem_peers", "Neighbours heard recently.", false, {"", std::to_string(peers.size())});
  const auto seconds = [](Micros us) { return fmt::format("{}", static_cast<double>(us) / 1e6); };
  for (const auto& p : peers) {
    const std::string peer = metric_label("peer", fmt::format("{:08x}", p.node));
    out.add("dissem_peer_last_heard_seconds", "Seconds since the neighbour was last heard.", false,
            {peer, seconds(p.last_heard_ago)});
    out.add("dissem_peer_loss_ratio", "The neighbour's estimated loss towards this node (0 to 1).", false,
            {peer, fmt::format("{}", p.estimated_loss)});
    if (p.loss_in)
      out.add("dissem_peer_loss_in_ratio", "Measured loss of the neighbour's datagrams on the way in (0 to 1).",
              false, {peer, fmt::format("{}", *p.loss_in)});
    if (p.loss_out)
      out.add("dissem_peer_loss_out_ratio", "Loss of this node's datagrams at the neighbour, as it reports (0 to 1).",
              false, {peer, fmt::format("{}", *p.loss_out)});
    if (p.srtt > 0)
      out.add("dissem_peer_rtt_seconds", "Smoothed round-trip time to the neighbour.", false,
              {peer, seconds(p.srtt)});
    if (p.clock_offset)
      out.add("dissem_peer_clock_offset_seconds", "The neighbour's clock minus this node's, from beacon echoes.", false,
              {peer, seconds(*p.clock_offset)});
    out.add("dissem_peer_received_bytes_per_second", "Bytes per second received from the neighbour.", false,
            {peer, fmt::format("{}", p.received_bytes_per_s)});
    out.add("dissem_peer_sent_bytes_per_second", "Bytes per second the neighbour reports sending.", false,
            {peer, fmt::format("{}", p.sent_bytes_per_s)});
  }
}

}  // namespace

std::string metric_label(std::string_view name, std::string_view value) {
  std::string out(name);
  out += "=\"";
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  out += '"';
  return out;
}

std::string metrics_text(const ipc::StatsSnapshot& stats, const std::vector<ipc::PeerInfo>& peers) {
  Families out;
  out.add("dissem_build_info", "The daemon's version, as a label; always 1.", false,
          {metric_label("version", kVersion), "1"});
  add_counters(out, ipc::stats_json(stats));
  add_peers(out, peers);
  return out.text();
}

}  // namespace dissem::daemon
