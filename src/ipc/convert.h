// Conversions between the engine's and daemon's C++ types and the IPC
// messages (proto/ipc.proto). The server converts one way and the client
// library the other, so both sides share one mapping.
#pragma once

#include "engine/node.h"
#include "ipc.pb.h"
#include "ipc/backend.h"

namespace dissem::ipc {

void to_proto(const StatsSnapshot& in, Stats& out);
StatsSnapshot from_proto(const Stats& in);

void to_proto(const PeerInfo& in, Peer& out);
PeerInfo from_proto(const Peer& in);

void to_proto(const engine::Delivery& in, Delivery& out);
engine::Delivery from_proto(const Delivery& in);

// Throws std::invalid_argument for an event kind this build does not know.
void to_proto(const engine::Event& in, Event& out);
engine::Event from_proto(const Event& in);

void to_proto(const engine::PublishRequest& in, Publish& out);
engine::PublishRequest from_proto(const Publish& in);
void to_proto(const engine::CancelRequest& in, Cancel& out);
engine::CancelRequest from_proto(const Cancel& in);
void to_proto(const engine::CachedMessage& in, CachedMessage& out);
engine::CachedMessage from_proto(const CachedMessage& in);
engine::ListRequest from_proto(const List& in);

void to_proto(const std::string& group, const engine::SubscriptionOptions& in, Subscribe& out);
engine::SubscriptionOptions from_proto(const Subscribe& in);

}  // namespace dissem::ipc
