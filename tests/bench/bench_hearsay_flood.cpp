// Benchmark: the memory a flood of hostile beacons can make a node hold.
// Beacons from invented nodes, each claiming for 1,000 invented publishers in
// a subscribed group 1,024 messages more than the last beacon did, and a huge
// sequence number for a real stream (the worst case: every claim tracks as
// much as a jump may), reach one
// node with the default limits while a real publisher's messages keep
// arriving. Prints what the node tracks and its resident memory as the flood
// goes on, then after the hearsay lifetime. Not a test: it asserts nothing.
//
//   bench_hearsay_flood [beacons]     (default 2,000: 2 billion claimed messages)
#include <cstdio>
#include <fstream>
#include <string>

#include "engine/node.h"
#include "wire/codec.h"
#include "support/node_harness.h"

using namespace dissem;

namespace {

double resident_mb() {
  std::ifstream in("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  in >> pages_total >> pages_resident;
  return static_cast<double>(pages_resident) * 4096.0 / 1e6;
}

std::vector<std::uint8_t> flood_beacon(std::uint32_t from, std::uint64_t newest, NodeId real) {
  wire::Beacon b;
  b.set_node(from);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    auto* n = b.add_newest();
    n->set_group("g");
    n->set_publisher(1000 + i);
    n->set_seq(newest);
  }
  auto* huge = b.add_newest();
  huge->set_group("g");
  huge->set_publisher(real);
  huge->set_seq(4'000'000'000);
  return wire::encode(b);
}

}  // namespace

int main(int argc, char** argv) {
  const int beacons = argc > 1 ? std::stoi(argv[1]) : 2000;
  const Micros t0 = 1'700'000'000LL * kSeconds;
  engine::EngineConfig cfg;  // the default limits
  cfg.node_id = 2;
  engine::Node rx(cfg, cache::Store::open(":memory:"), t0);
  rx.subscribe("g", engine::SubscriptionOptions{}, t0);
  engine::EngineConfig pcfg;
  pcfg.node_id = 1;
  pcfg.link_capacity_bps = 1'000'000'000;
  engine::Node pub(pcfg, cache::Store::open(":memory:"), t0);

  const double before = resident_mb();
  std::printf("defaults: max_tracked_messages %zu, max_streams %zu, max_peers %zu, hearsay lifetime %.0f s\n",
              cfg.max_tracked_messages, cfg.max_streams, cfg.max_peers,
              static_cast<double>(cfg.hearsay_lifetime) / kSeconds);
  std::printf("%8s %12s %10s %12s %12s\n", "beacons", "tracked", "delivered", "resident MB", "added MB");
  Micros now = t0;
  std::size_t delivered = 0;
  double peak = before;
  for (int i = 1; i <= beacons; ++i) {
    rx.on_datagram(flood_beacon(0xBAD00000u + static_cast<std::uint32_t>(i % 4096),
                                static_cast<std::uint64_t>(i) * 1024, 1),
                   now);
    if (i % 10 == 0) {  // a real message every 10 beacons
      pub.publish(test::request("g", std::vector<std::uint8_t>(3000, static_cast<std::uint8_t>(i))), now);
      for (Micros end = now + 10 * kMillis; now < end; now += kMillis) {
        while (auto d = pub.poll_datagram(now)) rx.on_datagram(d->bytes, now);
        rx.on_timer(now);
        while (rx.poll_datagram(now)) {  // its requests and beacons go nowhere
        }
      }
      while (rx.poll_delivery()) ++delivered;
    }
    peak = std::max(peak, resident_mb());
    if (i % (beacons / 10 > 0 ? beacons / 10 : 1) == 0)
      std::printf("%8d %12zu %10zu %12.1f %12.1f\n", i, rx.incomplete_wanted(), delivered, resident_mb(),
                  resident_mb() - before);
  }
  for (int i = 0; i < 300; ++i) {  // past the hearsay lifetime, housekeeping runs
    now += 250 * kMillis;
    rx.on_timer(now);
    while (rx.poll_datagram(now)) {
    }
  }
  const auto& s = rx.stats();
  std::printf("peak resident %.1f MB (%.1f MB above the start); after the lifetime: %zu tracked\n", peak,
              peak - before, rx.incomplete_wanted());
  std::printf("hearsay refused %llu, displaced %llu, forgotten %llu; peers refused %llu; real messages delivered %zu of %d\n",
              static_cast<unsigned long long>(s.hearsay_refused), static_cast<unsigned long long>(s.hearsay_displaced),
              static_cast<unsigned long long>(s.hearsay_expired), static_cast<unsigned long long>(s.peers_refused),
              delivered, beacons / 10);
  return 0;
}
