#include "tools/top_view.h"

#include <fmt/format.h>

#include <algorithm>

#include "tools/dissem_common.h"
#include "tools/dissem_peers.h"
#include "tools/dissem_progress.h"

namespace dissem::cli {
namespace {

constexpr int kBarWidth = 20;

// Printable ASCII only: names come from the air.
std::string printable(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c < 0x20 || c > 0x7e) c = '?';
  return out;
}

std::string rate(double per_s, bool bytes) {
  if (per_s < 0) return "-";
  return bytes ? human_bytes(per_s) + "/s" : fmt::format("{:.1f}", per_s);
}

// Per second between the samples; -1 without a previous one.
double per_second(std::uint64_t now, std::uint64_t before, double seconds) {
  if (seconds <= 0 || now < before) return -1;
  return static_cast<double>(now - before) / seconds;
}

void traffic(std::vector<std::string>& out, const TopSample* prev, const TopSample& now, double dt) {
  out.push_back(fmt::format("{:<10}{:>12}{:>14}{:>14}{:>14}", "traffic", "sent pkt/s", "sent", "recv pkt/s", "recv"));
  const auto& s = now.stats.engine;
  for (std::size_t k = 0; k < engine::kTrafficKinds; ++k) {
    const auto name = engine::traffic_kind_name(static_cast<engine::TrafficKind>(k));
    const engine::Stats* p = prev != nullptr ? &prev->stats.engine : nullptr;
    const auto d = [&](const engine::TrafficCounter& c, const engine::TrafficCounter* b, bool bytes) {
      if (b == nullptr) return -1.0;
      return per_second(bytes ? c.bytes : c.datagrams, bytes ? b->bytes : b->datagrams, dt);
    };
    const engine::TrafficCounter* ps = p != nullptr ? &p->sent[k] : nullptr;
    const engine::TrafficCounter* pr = p != nullptr ? &p->received[k] : nullptr;
    out.push_back(fmt::format("  {:<8}{:>12}{:>14}{:>14}{:>14}", name, rate(d(s.sent[k], ps, false), false),
                              rate(d(s.sent[k], ps, true), true), rate(d(s.received[k], pr, false), false),
                              rate(d(s.received[k], pr, true), true)));
  }
}

void requests_and_cache(std::vector<std::string>& out, const TopSample* prev, const TopSample& now, double dt) {
  const auto& s = now.stats.engine;
  const double mfr_rate = prev != nullptr ? per_second(s.mfrs_sent, prev->stats.engine.mfrs_sent, dt) : -1;
  out.push_back(fmt::format("requests: sent {} ({}/s), received {}; repairs queued {}, suppressed by NTM {}",
                            s.mfrs_sent, rate(mfr_rate, false), s.mfrs_received, s.repairs_queued,
                            s.repairs_suppressed_ntm));
  out.push_back(fmt::format("cache: {} in {} messages; delivered {}, evicted {}, expired {}",
                            human_bytes(static_cast<double>(now.stats.cache_bytes)), now.stats.cache_messages,
                            s.deliveries, s.messages_evicted, s.messages_expired));
}

void peers(std::vector<std::string>& out, const TopSample& now, std::size_t rows) {
  out.push_back(fmt::format("peers: {}", now.peers.size()));
  if (now.peers.empty() || rows == 0) return;
  out.push_back(fmt::format("  {:<10}{:>9}{:>10}{:>10}{:>10}{:>14}", "node", "heard", "loss in", "loss out", "rtt",
                            "recv"));
  for (std::size_t i = 0; i < now.peers.size() && i < rows; ++i) {
    const auto& p = now.peers[i];
    if (i + 1 == rows && now.peers.size() > rows) {
      out.push_back(fmt::format("  ... {} more", now.peers.size() - i));
      return;
    }
    out.push_back(fmt::format("  {:<10}{:>8.1f}s{:>10}{:>10}{:>8.0f}ms{:>14}", node_hex(p.node),
                              static_cast<double>(p.last_heard_ago) / 1e6, loss_percent(p.loss_in), loss_percent(p.loss_out),
                              static_cast<double>(p.srtt) / 1e3, rate(p.received_bytes_per_s, true)));
  }
}

void in_flight(std::vector<std::string>& out, const TopSample& now, std::size_t rows) {
  out.push_back(fmt::format("in flight: {}{} messages", now.in_flight.size(), now.in_flight_truncated ? "+" : ""));
  for (std::size_t i = 0; i < now.in_flight.size() && i < rows; ++i) {
    if (i + 1 == rows && now.in_flight.size() > rows) {
      out.push_back(fmt::format("  ... {} more", now.in_flight.size() - i));
      return;
    }
    const auto& m = now.in_flight[i];
    const double total = std::max<double>(1.0, m.meta.total_length);
    const double done = std::min(1.0, static_cast<double>(m.stored_bytes) / total);
    const int filled = static_cast<int>(done * kBarWidth);
    out.push_back(fmt::format("  {:<30} [{}{}] {:>3.0f}% of {}", printable(format_id(m.meta.id)),
                              std::string(static_cast<std::size_t>(filled), '#'),
                              std::string(static_cast<std::size_t>(kBarWidth - filled), '.'), done * 100.0,
                              human_bytes(total)));
  }
}

}  // namespace

std::vector<std::string> render_top(const std::string& title, const TopSample* previous, const TopSample& now,
                                    int width, int height) {
  const double dt =
      previous != nullptr ? std::chrono::duration<double>(now.at - previous->at).count() : 0.0;
  std::vector<std::string> out;
  out.push_back(now.stats.engine.silent ? title + "  [EMCON: silent, nothing sent]" : title);
  out.emplace_back();
  traffic(out, previous, now, dt);
  requests_and_cache(out, previous, now, dt);
  out.emplace_back();
  // What is left goes to the peers and the messages in flight, half each
  // (headers included), the peers never taking more than they need.
  const auto fixed = static_cast<int>(out.size());
  const int left = std::max(0, height - fixed - 3);  // the two headers and the peers' column line
  const auto peer_rows = std::min<std::size_t>(now.peers.size(), static_cast<std::size_t>(std::max(1, left / 2)));
  peers(out, now, peer_rows);
  const int used = static_cast<int>(out.size());
  in_flight(out, now, static_cast<std::size_t>(std::max(0, height - used - 1)));
  if (static_cast<int>(out.size()) > height) out.resize(static_cast<std::size_t>(std::max(0, height)));
  for (auto& line : out)
    if (static_cast<int>(line.size()) > width) line.resize(static_cast<std::size_t>(std::max(0, width)));
  return out;
}

}  // namespace dissem::cli
