#include "hostile_datagrams.h"

#include <algorithm>

#include "engine/security/datagram_auth.h"
#include "wire/codec.h"

namespace dissem::rogue {

Datagram malformed(std::mt19937_64& rng) {
  Datagram d(1 + rng() % 1400);
  for (auto& b : d) b = static_cast<std::uint8_t>(rng());
  if (rng() % 4 == 0) d[0] = static_cast<std::uint8_t>(wire::kWireVersion << 4 | (1 + rng() % 6));
  return d;
}

Datagram phantom_beacon(std::mt19937_64& rng, const std::string& group, std::uint32_t count, std::uint64_t claim,
                        const std::optional<Target>& target) {
  wire::Beacon b;
  b.set_node(static_cast<NodeId>(rng() | 1));
  b.set_sent_us(rng() >> 16);
  b.set_seq(static_cast<std::uint32_t>(rng()));
  for (std::uint32_t i = 0; i < count; ++i) {
    auto* n = b.add_newest();
    n->set_group(group);
    n->set_publisher(static_cast<NodeId>(rng() | 1));
    n->set_seq(claim);
  }
  if (target) {
    auto* n = b.add_newest();
    n->set_group(target->group);
    n->set_publisher(target->publisher);
    n->set_seq(target->newest + 1'000'000'000);
  }
  return wire::encode(b);
}

Datagram request_flood(std::mt19937_64& rng, const Target& target, NodeId requester) {
  wire::MissingFragmentRequest r;
  r.set_requester(requester != 0 ? requester : static_cast<NodeId>(rng() | 1));
  auto* w = r.add_wants();
  w->set_group(target.group);
  w->set_publisher(target.publisher);
  const std::uint64_t last = std::max<std::uint64_t>(target.newest, 1);
  const std::uint64_t first = last > 4096 ? last - 4095 : 1;
  for (std::uint64_t q = first; q <= last; ++q) w->add_messages()->set_seq(q);
  return wire::encode(r);
}

namespace {

// A data fragment heard, read as an outsider can: as it is, or, in a network
// with a network key, without the authentication trailer it cannot forge
// but can strip (engine/security/datagram_auth.h: the last 32 bytes).
bool decode_data(const Datagram& heard, wire::Decoded& d) {
  constexpr std::size_t kTrailer = engine::kAuthTrailerBytes;
  if (!wire::decode(heard, wire::Limits{}, d) && d.kind == wire::Kind::Data) return true;
  return heard.size() > kTrailer && !wire::decode(std::span(heard).first(heard.size() - kTrailer), wire::Limits{}, d) &&
         d.kind == wire::Kind::Data;
}

}  // namespace

Datagram corrupted_copy(std::mt19937_64& rng, const Datagram& real, bool other_digest) {
  wire::Decoded d;
  if (!decode_data(real, d)) return {};
  auto& f = d.data;
  std::string* payload = f.mutable_payload();
  (*payload)[rng() % payload->size()] ^= static_cast<char>(1 + rng() % 255);
  if (other_digest) f.set_digest(f.digest() ^ (rng() | 1));
  return wire::encode(f);
}

std::optional<Target> learn(const Datagram& received) {
  wire::Decoded d;
  if (!decode_data(received, d)) return std::nullopt;
  return Target{d.data.group(), d.data.publisher(), d.data.seq()};
}

}  // namespace dissem::rogue
