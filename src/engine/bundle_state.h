// Bundling (node_bundling.cpp): frames gathered for the next datagram since
// `since`, and a frame taken that did not fit it (it starts the next one).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/types.h"
#include "engine/node_types.h"
#include "wire/data_frame.h"

namespace dissem::engine {

struct BundleState {
  std::vector<OutgoingDatagram> frames;
  std::size_t bytes = 0;
  wire::DataContext context;  // data frames lean on the one before (wire/data_frame.h)
  Micros since = 0;
  std::optional<OutgoingDatagram> carry;
};

}  // namespace dissem::engine
