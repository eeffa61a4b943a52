// How a part tells the node that a message is settled: complete (held
// whole and verified) or not (ended, expired, superseded; never requested
// again). The node then closes its decoders and window images and lets the
// local subscriptions move on (NodeImpl::on_message_settled).
#pragma once

#include <functional>

#include "core/types.h"

namespace dissem::engine {

using MessageSettled = std::function<void(const MessageId& id, bool complete, Micros now)>;

}  // namespace dissem::engine
