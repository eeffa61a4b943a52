// `dissem peers`: the daemon's neighbours and their links.
#include "tools/dissem_peers.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "tools/dissem_commands.h"
#include "tools/dissem_common.h"
#include "tools/dissem_progress.h"

namespace dissem::cli {
namespace {

double millis(Micros t) { return static_cast<double>(t) / static_cast<double>(kMillis); }

}  // namespace

std::string loss_percent(const std::optional<double>& loss) {
  return loss ? fmt::format("{:.1f}%", *loss * 100.0) : std::string("-");
}

namespace {

// A fraction as a percentage with two decimals; null when unknown.
Json json_percent(const std::optional<double>& loss) {
  return loss ? Json(round_to_decimals(*loss * 100.0, 2)) : Json(nullptr);
}

std::string rate(double bytes_per_s) { return human_bytes(bytes_per_s) + "/s"; }

// The peer's clock minus ours: "+12.3 ms", "-2.50 s"; "-" until measured.
std::string clock_text(const std::optional<Micros>& offset) {
  if (!offset) return "-";
  const double ms = millis(*offset);
  return ms > -1000.0 && ms < 1000.0 ? fmt::format("{:+.1f} ms", ms) : fmt::format("{:+.2f} s", ms / 1000.0);
}

}  // namespace

Json peers_json(const std::vector<ipc::PeerInfo>& peers) {
  Json list = Json::array();
  for (const auto& p : peers) {
    list.push_back({{"node", node_hex(p.node)},
                    {"last_heard_ms_ago", static_cast<std::int64_t>(round_to_decimals(millis(p.last_heard_ago), 0))},
                    {"loss_pct", round_to_decimals(p.estimated_loss * 100.0, 2)},
                    {"srtt_ms", round_to_decimals(millis(p.srtt), 3)},
                    {"loss_in_pct", json_percent(p.loss_in)},
                    {"loss_out_pct", json_percent(p.loss_out)},
                    {"received_bytes_per_s", round_to_decimals(p.received_bytes_per_s, 1)},
                    {"sent_bytes_per_s", round_to_decimals(p.sent_bytes_per_s, 1)},
                    {"clock_offset_ms",
                     p.clock_offset ? Json(round_to_decimals(millis(*p.clock_offset), 1)) : Json(nullptr)},
                    {"link", p.link}});
  }
  return {{"peers", std::move(list)}};
}

std::string peers_table(const std::vector<ipc::PeerInfo>& peers) {
  if (peers.empty()) return "no peers heard\n";
  // A daemon with links of their own says which link each peer is on.
  const bool links = std::any_of(peers.begin(), peers.end(), [](const ipc::PeerInfo& p) { return !p.link.empty(); });
  std::string t = fmt::format("{:<8} {:>14} {:>8} {:>8} {:>10} {:>12} {:>12} {:>11}{}\n", "node", "last heard",
                              "loss in", "loss out", "srtt", "received", "sent", "clock", links ? "  link" : "");
  for (const auto& p : peers) {
    // srtt stays 0 until beacon echoes have measured it.
    const std::string srtt = p.srtt > 0 ? fmt::format("{:.1f} ms", millis(p.srtt)) : std::string("-");
    t += fmt::format("{:<8} {:>8.1f} s ago {:>8} {:>8} {:>10} {:>12} {:>12} {:>11}{}\n", node_hex(p.node),
                     millis(p.last_heard_ago) / 1000.0, loss_percent(p.loss_in), loss_percent(p.loss_out), srtt,
                     rate(p.received_bytes_per_s), rate(p.sent_bytes_per_s), clock_text(p.clock_offset),
                     links ? "  " + (p.link.empty() ? std::string("main") : p.link) : std::string());
  }
  return t;
}

std::string link_event_line(const ipc::LinkEventInfo& e) {
  const auto& p = e.peer;
  return fmt::format("{} {}: loss in {}, out {}, received {}", engine::link_event_name(e.kind), node_hex(p.node),
                     loss_percent(p.loss_in), loss_percent(p.loss_out), rate(p.received_bytes_per_s));
}

void run_peers(const std::string& socket, const PeersOptions& o) {
  if (o.watch) {
    watch_peers(socket, o);
    return;
  }
  auto c = connect_or_explain(socket);
  const auto peers = c.peers();
  const std::string text = o.json ? json_text(peers_json(peers)) + "\n" : peers_table(peers);
  std::fputs(text.c_str(), stdout);
}

}  // namespace dissem::cli
