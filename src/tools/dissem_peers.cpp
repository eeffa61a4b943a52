// `dissem peers`: the daemon's neighbours and their links. The JSON holds
// numbers, null and hex strings only, so it is written directly.
#include "tools/dissem_peers.h"

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

std::string json_percent(const std::optional<double>& loss) {
  return loss ? fmt::format("{:.2f}", *loss * 100.0) : std::string("null");
}

std::string rate(double bytes_per_s) { return human_bytes(bytes_per_s) + "/s"; }

}  // namespace

std::string peers_json(const std::vector<ipc::PeerInfo>& peers) {
  std::string j = "{\"peers\":[";
  for (std::size_t i = 0; i < peers.size(); ++i) {
    const auto& p = peers[i];
    if (i != 0) j += ',';
    j += fmt::format(R"({{"node":"{}","last_heard_ms_ago":{:.0f},"loss_pct":{:.2f},"srtt_ms":{:.3f},)",
                     node_hex(p.node), millis(p.last_heard_ago), p.estimated_loss * 100.0, millis(p.srtt));
    j += fmt::format(R"("loss_in_pct":{},"loss_out_pct":{},"received_bytes_per_s":{:.1f},"sent_bytes_per_s":{:.1f}}})",
                     json_percent(p.loss_in), json_percent(p.loss_out), p.received_bytes_per_s, p.sent_bytes_per_s);
  }
  j += "]}\n";
  return j;
}

std::string peers_table(const std::vector<ipc::PeerInfo>& peers) {
  if (peers.empty()) return "no peers heard\n";
  std::string t = fmt::format("{:<8} {:>14} {:>8} {:>8} {:>10} {:>12} {:>12}\n", "node", "last heard", "loss in",
                              "loss out", "srtt", "received", "sent");
  for (const auto& p : peers) {
    // srtt stays 0 until beacon echoes have measured it.
    const std::string srtt = p.srtt > 0 ? fmt::format("{:.1f} ms", millis(p.srtt)) : std::string("-");
    t += fmt::format("{:<8} {:>8.1f} s ago {:>8} {:>8} {:>10} {:>12} {:>12}\n", node_hex(p.node),
                     millis(p.last_heard_ago) / 1000.0, loss_percent(p.loss_in), loss_percent(p.loss_out), srtt,
                     rate(p.received_bytes_per_s), rate(p.sent_bytes_per_s));
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
  const std::string text = o.json ? peers_json(peers) : peers_table(peers);
  std::fputs(text.c_str(), stdout);
}

}  // namespace dissem::cli
