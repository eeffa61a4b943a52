// libFuzzer target for the receive path. The input is a sequence of
// datagrams, each prefixed by a 2-byte little-endian length; each one goes
// through decode() and then into a live Node (with an in-memory cache), so
// valid-but-hostile messages exercise reassembly, requests and serving too.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <sodium.h>

#include "engine/security/datagram_auth.h"
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

// Three nodes on one medium: the input's datagrams reach node 0, and every
// datagram any node sends reaches the other two, so hostile input is also
// relayed, answered, recoded and requested across nodes (bounded per step).
void run_network(const std::uint8_t* data, std::size_t size) {
  using namespace dissem;
  std::vector<std::unique_ptr<engine::Node>> nodes;
  for (std::uint32_t i = 0; i < 3; ++i) {
    engine::EngineConfig cfg;
    cfg.node_id = 0xFFFF0010 + i;
    cfg.max_tracked_messages = 4096;
    if (i == 2) cfg.controllers.forwarding = "flooding";
    nodes.push_back(std::make_unique<engine::Node>(cfg, cache::Store::open(":memory:"), 0));
    nodes.back()->subscribe("g", engine::SubscriptionOptions{}, 0);
  }
  Micros now = 1;
  std::size_t pos = 0;
  while (pos + 2 <= size) {
    const std::size_t len = std::min<std::size_t>(data[pos] | (data[pos + 1] << 8), size - pos - 2);
    pos += 2;
    nodes[0]->on_datagram(std::span<const std::uint8_t>(data + pos, len), now);
    pos += len;
    for (int step = 0; step < 4; ++step) {
      now += 10 * kMillis;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        nodes[i]->on_timer(now);
        for (int k = 0; k < 16; ++k) {
          auto d = nodes[i]->poll_datagram(now);
          if (!d) break;
          for (std::size_t j = 0; j < nodes.size(); ++j)
            if (j != i) nodes[j]->on_datagram(d->bytes, now);
        }
        while (nodes[i]->poll_delivery()) {
        }
        while (nodes[i]->poll_event()) {
        }
      }
    }
  }
}

// A member of a keyed network: the input's datagrams arrive sealed with the
// network key (a few of them twice, as replays), so what lies behind the
// trailer check (the replay guard, the sealer checks, the signature checks of
// group "g", sealed payloads) gets the hostile input too. Fixed keys: the
// fuzzer explores the messages, not the keys.
void run_keyed(const std::uint8_t* data, std::size_t size) {
  using namespace dissem;
  static const engine::SecurityConfig security = [] {
    if (sodium_init() < 0) __builtin_trap();
    engine::SecurityConfig s;
    s.network[1].fill(0x11);
    std::array<std::uint8_t, crypto_sign_SEEDBYTES> seed{};
    seed.fill(0x22);
    engine::SigningKey sk{};
    crypto_sign_seed_keypair(s.groups["g"].verify[1].data(), sk.data(), seed.data());
    s.groups["g"].seal[1].fill(0x33);
    return s;
  }();
  engine::EngineConfig cfg;
  cfg.node_id = 0xFFFF0030;
  cfg.max_tracked_messages = 4096;
  cfg.security = security;
  engine::Node node(cfg, cache::Store::open(":memory:"), 0);
  node.subscribe("g", engine::SubscriptionOptions{}, 0);
  Micros now = 1;
  std::uint64_t counter = 1;
  std::size_t pos = 0;
  std::vector<std::vector<std::uint8_t>> burst;
  while (pos + 2 <= size) {
    const std::size_t len = std::min<std::size_t>(data[pos] | (data[pos + 1] << 8), size - pos - 2);
    pos += 2;
    std::vector<std::uint8_t> sealed(data + pos, data + pos + len);
    pos += len;
    // The sender: the input's publisher-like ids are the members.
    const NodeId sender = sealed.size() > 5 ? (sealed[1] | sealed[2] << 8) + 0xFFFF0000u : 0xFFFF0040u;
    engine::seal_datagram(sealed, security.network.begin()->second, 1, sender, counter++);
    burst.push_back(sealed);
    if (counter % 7 == 0) burst.push_back(sealed);  // a replay
    // Datagrams arrive one by one, and in bursts of up to four (as dissemd
    // reads its socket), which the chain checks newest first.
    if (counter % 3 != 0 && burst.size() < 4 && pos + 2 <= size) continue;
    if (burst.size() == 1) {
      node.on_datagram(burst.front(), now);
    } else {
      const std::vector<std::span<const std::uint8_t>> spans(burst.begin(), burst.end());
      node.on_datagrams(spans, now);
    }
    burst.clear();
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

// The same input four times: a node with the default controllers, one with
// subscription-aware forwarding and anti-entropy, so interests, summaries,
// rebroadcasts and pushes get the hostile input too, a network of three, and
// a member of a keyed network.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dissem::engine::EngineConfig cfg;
  cfg.node_id = 0xFFFF0001;
  cfg.max_tracked_messages = 4096;
  run(cfg, data, size);
  cfg.controllers.forwarding = "subscription-aware";
  cfg.controllers.replication = "anti-entropy";
  run(cfg, data, size);
  run_network(data, size);
  run_keyed(data, size);
  return 0;
}
