// Keys for tests of authenticated groups driven through engine::Node by
// hand: fresh random keys, a keyed network with one group "ops", and
// relaying what one node sends to others on a lossless medium.
#pragma once

#include <sodium.h>

#include <stdexcept>
#include <vector>

#include "engine/node.h"
#include "support/node_harness.h"

namespace dissem::test {

inline engine::SymmetricKey random_key() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium");
  engine::SymmetricKey k{};
  randombytes_buf(k.data(), k.size());
  return k;
}

struct GroupKeyPair {
  engine::VerifyKey pk{};
  engine::SigningKey sk{};
  GroupKeyPair() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium");
    crypto_sign_keypair(pk.data(), sk.data());
  }
};

inline std::size_t integrity(const engine::Node& n, engine::IntegrityEvent e) {
  return n.stats().integrity[static_cast<std::size_t>(e)];
}

// A network of nodes on one lossless broadcast medium, driven by hand.
struct KeyedNet {
  engine::SymmetricKey net = random_key();
  GroupKeyPair ops;
  engine::SymmetricKey seal = random_key();

  engine::SecurityConfig member(bool can_sign, bool can_read = true) const {
    engine::SecurityConfig s;
    s.network[1] = net;
    engine::GroupKeys g;
    g.verify[1] = ops.pk;
    if (can_sign) g.sign[1] = ops.sk;
    if (can_read) g.seal[1] = seal;
    s.groups["ops"] = g;
    return s;
  }
  static engine::EngineConfig config(NodeId id, const engine::SecurityConfig& s) {
    engine::EngineConfig c = fast_config(id);
    c.security = s;
    return c;
  }
};

// Everything `from` sends within 100 ms, heard by each of `to`.
inline std::vector<std::vector<std::uint8_t>> relay(engine::Node& from, std::vector<engine::Node*> to, Micros now) {
  auto out = drain(from, now);
  for (auto* n : to)
    for (const auto& d : out) n->on_datagram(d, now);
  return out;
}

inline std::vector<engine::Delivery> deliveries(engine::Node& n) {
  std::vector<engine::Delivery> out;
  while (auto d = n.poll_delivery()) out.push_back(std::move(*d));
  return out;
}

}  // namespace dissem::test
