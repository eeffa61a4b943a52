// What dissem-rogue prints when it stops: one JSON object saying what it sent
// and which publisher it targeted. The target's group name was heard off the
// air, so it may hold any bytes; the summary stays valid JSON whatever it is.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/json.h"
#include "hostile_datagrams.h"

namespace dissem::rogue {

struct RogueTally {
  std::uint64_t datagrams = 0;
  std::uint64_t bytes = 0;
  std::uint64_t heard = 0;
  std::optional<Target> target;
  std::map<std::string, std::uint64_t> sent;  // datagrams per attack
};

// {"datagrams", "bytes", "heard", "target": {group, publisher, newest} | null, "sent": {attack: n}}
Json rogue_summary(const RogueTally& tally);

}  // namespace dissem::rogue
