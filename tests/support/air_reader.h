// Decodes datagrams as a node on the air would: it learns the publishers'
// short group references (wire/group_refs.h) from the data frames and
// beacons that announce them, so the frames that follow decode too. Tests
// read the datagrams a node sends in order through one AirReader.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "engine/stats.h"
#include "wire/codec.h"

namespace dissem::test {

class AirReader {
 public:
  std::optional<engine::DecodeError> decode(std::span<const std::uint8_t> bytes, wire::Decoded& out,
                                            wire::DataContext* context = nullptr) {
    auto err = wire::decode(bytes, wire::Limits{}, out, &refs_, context);
    if (err) return err;
    if (out.kind == wire::Kind::Data && out.data_info.named)
      refs_.learn(out.data.publisher(), out.data_info.group_ref, out.data.group());
    if (out.kind == wire::Kind::Beacon)
      for (const auto& n : out.beacon.newest()) refs_.learn(n.publisher(), n.group_ref(), n.group());
    return std::nullopt;
  }

  // Every frame of a datagram that decodes: a bundle's items, or the datagram itself.
  std::vector<wire::Decoded> frames(std::span<const std::uint8_t> bytes) {
    std::vector<wire::Decoded> out;
    wire::Decoded d;
    if (decode(bytes, d)) return out;
    if (d.kind != wire::Kind::Bundle) {
      out.push_back(std::move(d));
      return out;
    }
    wire::DataContext context;
    for (const auto& item : d.items) {
      wire::Decoded one;
      if (!decode(item, one, &context)) out.push_back(std::move(one));
    }
    return out;
  }

  // Hears `datagrams` (learning what they announce), then decodes the i-th.
  std::optional<engine::DecodeError> decode_among(const std::vector<std::vector<std::uint8_t>>& datagrams,
                                                  std::size_t i, wire::Decoded& out) {
    for (const auto& d : datagrams) frames(d);
    return decode(datagrams.at(i), out);
  }

  const wire::GroupRefs& refs() const { return refs_; }

 private:
  wire::GroupRefs refs_;
};

}  // namespace dissem::test
