#include "tools/norm_gateway/norm_endpoint.h"

#include <poll.h>

#include <string>

namespace dissem::norm_gateway {

NormEndpoint::NormEndpoint(const GatewayConfig& c) {
  instance_ = NormCreateInstance(false);
  if (instance_ == NORM_INSTANCE_INVALID) throw NormError("NORM: NormCreateInstance failed");
  const NormNodeId node = c.node_id == 0 ? NORM_NODE_ANY : c.node_id;
  session_ = NormCreateSession(instance_, c.address.c_str(), c.port, node);
  auto fail = [this](const std::string& what) {
    if (session_ != NORM_SESSION_INVALID) NormDestroySession(session_);
    NormDestroyInstance(instance_);
    throw NormError(what);
  };
  if (session_ == NORM_SESSION_INVALID) {
    fail("norm.address/norm.port: NORM could not create a session on " + c.address + "/" + std::to_string(c.port));
  }
  if (!c.interface.empty() && !NormSetMulticastInterface(session_, c.interface.c_str())) {
    fail("norm.interface: NORM could not use '" + c.interface + "'");
  }
  if (!NormSetTTL(session_, static_cast<unsigned char>(c.ttl))) fail("norm.ttl: NormSetTTL failed");
  if (c.loopback) {
    // Other NORM programs on this host must hear us, and share the port.
    if (!NormSetMulticastLoopback(session_, true)) fail("norm.loopback: NormSetMulticastLoopback failed");
    NormSetRxPortReuse(session_, true);
  }
  NormSetGrttEstimate(session_, c.grtt_s);
  NormSetTxRate(session_, c.tx_rate_bps);
  NormSetTxCacheBounds(session_, c.tx_buffer_bytes, 1, c.tx_cache_objects);
  NormSetDefaultSyncPolicy(session_, c.sync_all ? NORM_SYNC_ALL : NORM_SYNC_CURRENT);
  if (!NormStartSender(session_, NormGetRandomSessionId(), static_cast<UINT32>(c.tx_buffer_bytes),
                       static_cast<UINT16>(c.segment_bytes), static_cast<UINT16>(c.block),
                       static_cast<UINT16>(c.parity))) {
    fail("norm.interface: NormStartSender failed (cannot open or join the session; a namespace without a default "
         "route needs norm.interface)");
  }
  NormSetAutoParity(session_, static_cast<unsigned char>(c.auto_parity));
  if (!NormStartReceiver(session_, static_cast<UINT32>(c.rx_buffer_bytes))) {
    fail("norm.rx_buffer_bytes: NormStartReceiver failed");
  }
}

NormEndpoint::~NormEndpoint() {
  NormStopReceiver(session_);
  NormStopSender(session_);
  NormDestroySession(session_);
  NormDestroyInstance(instance_);
}

std::uint32_t NormEndpoint::local_node_id() const { return NormGetLocalNodeId(session_); }

bool NormEndpoint::enqueue(std::span<const std::uint8_t> info, std::vector<std::uint8_t> data) {
  // NormDataEnqueue copies the info but not the data, which must stay put
  // until the object is purged; a vector's buffer does not move with it.
  const char* bytes = reinterpret_cast<const char*>(data.data());
  NormObjectHandle object = NormDataEnqueue(session_, bytes, static_cast<UINT32>(data.size()),
                                            reinterpret_cast<const char*>(info.data()),
                                            static_cast<unsigned>(info.size()));
  if (object == NORM_OBJECT_INVALID) {
    ++counters_.enqueue_refused;
    return false;
  }
  held_.emplace(object, std::move(data));
  return true;
}

void NormEndpoint::pump(std::chrono::milliseconds wait, const Handlers& handlers) {
  NormEvent event;
  bool waited = false;
  for (;;) {
    while (NormGetNextEvent(instance_, &event, false)) {
      if (event.type != NORM_EVENT_INVALID) handle(event, handlers);
      waited = true;  // something came: do not wait any more
    }
    if (waited || wait.count() <= 0) return;
    pollfd fd{NormGetDescriptor(instance_), POLLIN, 0};
    if (poll(&fd, 1, static_cast<int>(wait.count())) <= 0) return;  // timeout, or a signal
    waited = true;
  }
}

void NormEndpoint::handle(const NormEvent& event, const Handlers& handlers) {
  switch (event.type) {
    case NORM_RX_OBJECT_INFO: {
      if (!handlers.info) break;
      std::vector<std::uint8_t> info(NormObjectGetInfoLength(event.object));
      NormObjectGetInfo(event.object, reinterpret_cast<char*>(info.data()), static_cast<UINT16>(info.size()));
      handlers.info(info);
      break;
    }
    case NORM_RX_OBJECT_COMPLETED: {
      if (NormObjectGetType(event.object) != NORM_OBJECT_DATA) {
        ++counters_.objects_unsupported;
        break;
      }
      ++counters_.objects_received;
      std::vector<std::uint8_t> info(NormObjectGetInfoLength(event.object));
      NormObjectGetInfo(event.object, reinterpret_cast<char*>(info.data()), static_cast<UINT16>(info.size()));
      const auto size = static_cast<std::size_t>(NormObjectGetSize(event.object));
      const char* data = NormDataAccessData(event.object);  // valid until the next event is fetched
      std::vector<std::uint8_t> bytes;
      if (data != nullptr) bytes.assign(data, data + size);
      const NormNodeHandle sender = NormObjectGetSender(event.object);
      if (handlers.object) handlers.object(NormNodeGetId(sender), std::move(info), std::move(bytes));
      break;
    }
    case NORM_RX_OBJECT_ABORTED: ++counters_.objects_aborted; break;
    case NORM_TX_OBJECT_SENT: ++counters_.objects_sent; break;
    case NORM_TX_OBJECT_PURGED:
      ++counters_.objects_purged;
      held_.erase(event.object);
      break;
    case NORM_SEND_ERROR: ++counters_.send_errors; break;
    default: break;
  }
}

}  // namespace dissem::norm_gateway
