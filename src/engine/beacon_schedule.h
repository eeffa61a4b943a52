// When the next beacon goes and what the last ones said (node_beacon.cpp).
// Beacons are paced to the link: on slow links one saying nothing new
// doubles the wait for the next, and a node sending its first pass defers them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/types.h"
#include "engine/interests.h"

namespace dissem::engine {

struct BeaconSchedule {
  Micros next = 0;
  std::size_t rotation = 0;  // where the next beacon's window of streams starts
  std::uint32_t sent = 0;    // beacons sent (each one's seq)
  Micros last_at = 0;
  std::size_t last_content = 0;  // a hash of what the last said, without timestamps and echoes
  std::uint32_t quiet = 0;       // how many in a row said nothing new
  // The last beacon's interest entries that name a next hop (watched by relay_watch).
  std::vector<AdvertisedInterest> named_relays;
};

}  // namespace dissem::engine
