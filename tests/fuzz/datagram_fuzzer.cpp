// libFuzzer target for the receive path. The input is a sequence of
// datagrams, each prefixed by a 2-byte little-endian length; each one goes
// through decode() and then into a live Node (with an in-memory cache), so
// valid-but-hostile messages exercise reassembly, requests and serving too.
#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/node.h"
#include "wire/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dissem;
  engine::EngineConfig cfg;
  cfg.node_id = 0xFFFF0001;
  cfg.max_tracked_messages = 4096;
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
  return 0;
}
