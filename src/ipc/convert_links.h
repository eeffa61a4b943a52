// Conversions of link quality (peers' figures, link events, thresholds)
// between the engine's types and the IPC messages.
#pragma once

#include "engine/link_watch.h"
#include "ipc.pb.h"
#include "ipc/backend.h"

namespace dissem::ipc {

// A LinkSample as the IPC reports it, at `now`.
PeerInfo peer_info(const engine::LinkSample& sample, Micros now);

void to_proto(const LinkEventInfo& in, LinkEvent& out);
// Throws std::invalid_argument for a kind this build does not know.
LinkEventInfo from_proto(const LinkEvent& in);

void to_proto(const engine::LinkThresholds& in, LinkThresholds& out);
engine::LinkThresholds from_proto(const LinkThresholds& in);

}  // namespace dissem::ipc
