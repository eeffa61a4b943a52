// Who put a received frame on the air, as far as the frame tells: the
// sealer of a datagram under the network key; otherwise the node a control
// frame names (beacon, request, summary), the publisher of a first pass,
// the forwarder of a rebroadcast. Repairs name no sender (any holder
// answers): 0, unknown. For the per-peer received rate (link_quality.h).
#pragma once

#include "core/types.h"
#include "wire/codec.h"

namespace dissem::engine {

NodeId sender_of(const wire::Decoded& d, NodeId sealer);

}  // namespace dissem::engine
