// What a hostile radio sends: each attack class of docs/threat-model.md as a
// datagram builder, for dissem-rogue and for tests. Pure functions of their
// inputs and a seeded generator, so a run is reproducible from its seed.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/types.h"

namespace dissem::rogue {

// A real stream the rogue has heard (learnt from a data fragment).
struct Target {
  std::string group;
  NodeId publisher = 0;
  std::uint64_t newest = 0;
};

using Datagram = std::vector<std::uint8_t>;

// Random bytes; one in four starts with a valid prefix byte, so the parser,
// not just the version check, has to refuse it.
Datagram malformed(std::mt19937_64& rng);

// A beacon from an invented node claiming that `count` invented publishers
// in `group` have published up to `claim`, and, with a target, a huge
// sequence number for the real stream.
Datagram phantom_beacon(std::mt19937_64& rng, const std::string& group, std::uint32_t count, std::uint64_t claim,
                        const std::optional<Target>& target);

// A request for whole messages 1..newest of the target (at most 4,096
// entries): what it costs the holders to answer. From `requester`, or from a
// new invented node id each time when it is 0.
Datagram request_flood(std::mt19937_64& rng, const Target& target, NodeId requester = 0);

// A real data fragment with its payload altered but its header (digest
// included) kept, or, with `other_digest`, naming another digest too. Empty
// if `real` is not a data fragment.
Datagram corrupted_copy(std::mt19937_64& rng, const Datagram& real, bool other_digest);

// The target learnt from a received datagram, if it is a data fragment.
std::optional<Target> learn(const Datagram& received);

}  // namespace dissem::rogue
