// Settings shared by the forwarding controllers that follow advertised
// interest (subscription-aware and subscriber-tree): how far interest is
// advertised, and the longest random delay before a rebroadcast.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace dissem::controllers {

struct InterestForwardingParams {
  std::uint32_t hop_limit = 8;
  Micros delay_max = 0;  // 0: four packet times
};

}  // namespace dissem::controllers
