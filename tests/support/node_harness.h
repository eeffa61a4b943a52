// Helpers for tests that drive engine::Node directly through its public API:
// payloads, publish requests, a configuration with pacing out of the way, and
// draining what a node sends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/node.h"

namespace dissem::test {

inline std::vector<std::uint8_t> bytes_of(std::size_t n, std::uint8_t salt) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i * 7 + salt);
  return v;
}

inline engine::PublishRequest request(const std::string& group, std::vector<std::uint8_t> payload,
                                      std::uint32_t priority = 0, std::uint64_t expiry_ms = 0) {
  engine::PublishRequest r;
  r.group = group;
  r.payload = std::move(payload);
  r.priority = priority;
  r.expiry_ms = expiry_ms;
  return r;
}

inline engine::EngineConfig fast_config(NodeId id) {
  engine::EngineConfig c;
  c.node_id = id;
  c.link_capacity_bps = 1'000'000'000;  // pacing out of the way for direct tests
  c.bundle_delay = 0;  // one frame per datagram: tests look at frames (bundling_test.cpp bundles)
  return c;
}

// Everything the node sends within 100 ms, letting its pacer advance time.
inline std::vector<std::vector<std::uint8_t>> drain(engine::Node& n, Micros now) {
  std::vector<std::vector<std::uint8_t>> out;
  const Micros end = now + 100 * kMillis;
  while (now < end) {
    if (auto d = n.poll_datagram(now)) {
      out.push_back(std::move(d->bytes));
    } else {
      now = std::max(now + 1, std::min(end, n.next_deadline()));
    }
  }
  return out;
}

// The data fragments among datagrams (wire kind 1).
inline std::vector<std::vector<std::uint8_t>> only_data(const std::vector<std::vector<std::uint8_t>>& in) {
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto& d : in)
    if (!d.empty() && (d[0] & 0x0f) == 1) out.push_back(d);
  return out;
}

}  // namespace dissem::test
