// dissem-load: the workload of an emulated experiment, on the same footing as
// the NORM baseline program (emulation/baselines/norm): a publisher that sends
// stamped messages of given sizes at a given pace, and a receiver that counts
// them, checks their content and measures per-message latency. Each prints
// one JSON object as its last line of stdout for the experiment runner.
//
//   dissem-load publish --socket S --group G --messages 1x819200 [--interval-s T]
//   dissem-load receive --socket S --group G --expect N [--time-limit-s T]
#include <chrono>
#include <cstdio>
#include <map>
#include <utility>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "client/client.h"
#include "tools/dissem_commands.h"
#include "tools/load/message_plan.h"
#include "tools/load/stamped_payload.h"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::uint64_t unix_us() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct PublishArgs {
  std::string socket, group, messages;
  double interval_s = 0;
  std::uint32_t priority = 0;
};

int run_publish(const PublishArgs& a) {
  const auto sizes = dissem::load::parse_message_sizes(a.messages);
  dissem::client::Client c(a.socket);
  const auto t0 = Clock::now();
  const std::uint64_t start_unix = unix_us();
  std::string times;
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i != 0 && a.interval_s > 0) std::this_thread::sleep_until(t0 + std::chrono::duration<double>(a.interval_s * static_cast<double>(i)));
    const std::uint64_t now = unix_us();
    const auto payload = dissem::load::make_payload(sizes[i], {static_cast<std::uint32_t>(i), now});
    c.publish(a.group, payload, a.priority);
    bytes += sizes[i];
    if (i != 0) times += ',';
    times += fmt::format("{:.6f}", static_cast<double>(now - start_unix) / 1e6);
  }
  std::printf(
      "{\"system\":\"dissem\",\"role\":\"sender\",\"messages_published\":%zu,\"bytes_published\":%llu,"
      "\"start_unix\":%.6f,\"publish_s\":[%s],\"duration_s\":%.6f}\n",
      sizes.size(), static_cast<unsigned long long>(bytes), static_cast<double>(start_unix) / 1e6, times.c_str(),
      seconds_since(t0));
  return 0;
}

struct ReceiveArgs {
  std::string socket, group;
  std::size_t expect = 1;
  double time_limit_s = 600;
  bool unreliable = false;
  std::uint32_t history = 0;
};

struct Received {
  std::size_t bytes = 0;
  double latency_s = 0;
  double completed_unix = 0;
};

int run_receive(const ReceiveArgs& a) {
  dissem::client::Client c(a.socket);
  c.subscribe(a.group, !a.unreliable, /*ordered=*/false, a.history);
  const auto t0 = Clock::now();
  const auto deadline = t0 + std::chrono::duration<double>(a.time_limit_s);
  // By publisher and the publisher's message index: several publishers may
  // share a group (each numbers its messages from 0).
  std::map<std::pair<dissem::NodeId, std::uint32_t>, Received> got;
  std::size_t content_errors = 0, duplicates = 0;
  double first_rx_s = -1, last_s = 0;
  while (got.size() < a.expect && Clock::now() < deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    auto d = c.next_delivery(std::min<std::chrono::milliseconds>(left, 1000ms));
    if (!d) continue;
    const std::uint64_t now = unix_us();
    const double at = seconds_since(t0);
    if (first_rx_s < 0) first_rx_s = at;
    const auto stamp = dissem::load::check_payload(d->payload);
    if (!stamp) {
      ++content_errors;
      continue;
    }
    const auto key = std::make_pair(d->meta.id.publisher, stamp->index);
    if (got.contains(key)) {
      ++duplicates;
      continue;
    }
    got[key] = {d->payload.size(), static_cast<double>(now - stamp->published_unix_us) / 1e6,
                         static_cast<double>(now) / 1e6};
    last_s = at;
  }
  const bool timed_out = got.size() < a.expect;
  std::string messages;
  std::uint64_t bytes = 0;
  for (const auto& [key, r] : got) {
    if (!messages.empty()) messages += ',';
    messages += fmt::format(R"({{"publisher":"{:08x}","index":{},"bytes":{},"latency_s":{:.6f},"completed_unix":{:.6f}}})",
                            key.first, key.second, r.bytes, r.latency_s, r.completed_unix);
    bytes += r.bytes;
  }
  std::string daemon = "null";
  try {
    daemon = dissem::cli::stats_json(c.stats());
    while (!daemon.empty() && daemon.back() == '\n') daemon.pop_back();
  } catch (const std::exception&) {
    // The result matters more than the daemon's counters: keep "null".
  }
  std::printf(
      "{\"system\":\"dissem\",\"role\":\"receiver\",\"messages_completed\":%zu,\"bytes_completed\":%llu,"
      "\"expected\":%zu,\"content_errors\":%zu,\"duplicates\":%zu,\"first_rx_s\":%.6f,\"last_completion_s\":%.6f,"
      "\"timed_out\":%s,\"messages\":[%s],\"daemon\":%s}\n",
      got.size(), static_cast<unsigned long long>(bytes), a.expect, content_errors, duplicates, first_rx_s, last_s,
      timed_out ? "true" : "false", messages.c_str(), daemon.c_str());
  return timed_out ? 4 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dissem-load: an experiment's publisher and receiver, reporting JSON"};
  app.require_subcommand(1);
  PublishArgs p;
  auto* pub = app.add_subcommand("publish", "publish stamped messages and report when");
  pub->add_option("--socket", p.socket, "dissemd's IPC socket")->required();
  pub->add_option("--group", p.group, "group to publish to")->required();
  pub->add_option("--messages", p.messages, "sizes: COUNTxBYTES or BYTES, comma-separated")->required();
  pub->add_option("--interval-s", p.interval_s, "pause between the starts of two publishes")->check(CLI::NonNegativeNumber);
  pub->add_option("--priority", p.priority, "message priority");
  ReceiveArgs r;
  auto* rec = app.add_subcommand("receive", "receive stamped messages and report latency");
  rec->add_option("--socket", r.socket, "dissemd's IPC socket")->required();
  rec->add_option("--group", r.group, "group to subscribe to")->required();
  rec->add_option("--expect", r.expect, "messages to wait for")->required()->check(CLI::PositiveNumber);
  rec->add_option("--time-limit-s", r.time_limit_s, "give up after this many seconds (exit 4)")->check(CLI::PositiveNumber);
  rec->add_flag("--unreliable", r.unreliable, "subscribe without requesting missing fragments");
  rec->add_option("--history", r.history,
                  "earlier messages to fetch per publisher (a node that first hears a stream mid-way)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    return pub->parsed() ? run_publish(p) : run_receive(r);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "dissem-load: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissem-load: %s\n", e.what());
    return 3;
  }
}
