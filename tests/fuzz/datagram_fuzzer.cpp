// libFuzzer target for the receive path. The input is a sequence of
// datagrams, each prefixed by a 2-byte little-endian length; each one goes
// through decode() and then into a live Node (with an in-memory cache), so
// valid-but-hostile messages exercise reassembly, requests and serving too.
#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/node.h"
#include "wire/codec.h"

namespace {

// Feeds every datagram of the input to one node configured by `cfg`.
void run(const dissem::engine::EngineConfig& cfg, const std::uint8_t* data, std::size_t size) {
  using namespace dissem;
  engine::Node node(cfg, cache::Store::open(":memory:"), 0);
  node.subscribe("g", engine::SubscriptionOptions{}, 0);

  Micros now = 1;
  std::size_t pos = 0;
  while (pos + 2 <= size) {
    const std::size_t len = std::min<std::size_t>(data[pos] | (data[pos + 1] << 8), size - pos - 2);
    pos += 2;
    std::span<const std::uint8_t> datagram(data + pos, len);
    pos += len;

    wire::Decoded decoded;
    (void)wire::decode(datagram, wire::Limits{}, decoded);
    node.on_datagram(datagram, now);
    now += 10 * kMillis;
    node.on_timer(now);
    for (int i = 0; i < 64 && node.poll_datagram(now); ++i) {
    }
    while (node.poll_delivery()) {
    }
    while (node.poll_event()) {
    }
  }
}

}  // namespace

// The same input twice: a node with the default controllers, and one with
// subscription-aware forwarding and anti-entropy, so interests, summaries,
// rebroadcasts and pushes get the hostile input too.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dissem::engine::EngineConfig cfg;
  cfg.node_id = 0xFFFF0001;
  cfg.max_tracked_messages = 4096;
  run(cfg, data, size);
  cfg.controllers.forwarding = "subscription-aware";
  cfg.controllers.replication = "anti-entropy";
  run(cfg, data, size);
  return 0;
}
