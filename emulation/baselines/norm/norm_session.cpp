#include "norm_session.h"

#include <poll.h>

#include <cstdio>

#include <cerrno>
#include <cmath>
#include <string>

#include "udp_broadcast.h"

namespace dissem::norm_baseline {

NormRuntime::NormRuntime(const CommonOptions& o) {
  instance_ = NormCreateInstance(false);
  if (instance_ == NORM_INSTANCE_INVALID) throw NormError("NormCreateInstance failed");
  session_ = NormCreateSession(instance_, o.group.c_str(), o.port, o.node_id);
  if (session_ == NORM_SESSION_INVALID) {
    NormDestroyInstance(instance_);
    throw NormError("NormCreateSession failed for " + o.group + "/" + std::to_string(o.port));
  }
  // From here on the destructor would not run if we threw, so release by hand.
  auto fail = [this](const std::string& what) {
    NormDestroySession(session_);
    NormDestroyInstance(instance_);
    throw NormError(what);
  };
  // Without an explicit interface NORM joins and sends where the routing table
  // says; in a namespace with no default route that fails outright.
  if (!o.interface.empty() && !NormSetMulticastInterface(session_, o.interface.c_str())) {
    fail("--interface: NORM could not use '" + o.interface + "'");
  }
  if (o.ttl && !NormSetTTL(session_, static_cast<unsigned char>(*o.ttl))) fail("--ttl: NormSetTTL failed");
  if (o.loopback) {
    // Other processes on this host must see our multicast, and all of them
    // bind the same session port.
    if (!NormSetMulticastLoopback(session_, true)) fail("--loopback: NormSetMulticastLoopback failed");
    NormSetRxPortReuse(session_, true);
  }
  if (o.grtt) NormSetGrttEstimate(session_, *o.grtt);
  broadcast_ = needs_broadcast_permission(o.group);
}

void NormRuntime::start(const char* what, const std::function<bool(NormSessionHandle)>& start_call) {
  if (!NormSuspendInstance(instance_)) throw NormError("NormSuspendInstance failed");
  bool started = start_call(session_);
  int changed = started && broadcast_ ? allow_broadcast_on_udp_sockets() : 0;
  NormResumeInstance(instance_);
  if (!started) {
    throw NormError(std::string(what) +
                    " failed: cannot open or join the session; without --interface, a namespace with no default "
                    "route fails here");
  }
  if (broadcast_) {
    if (changed == 0) throw NormError("broadcast address: could not set SO_BROADCAST on NORM's sockets");
    std::fprintf(stderr, "dissem-norm: broadcast session: SO_BROADCAST set on %d NORM socket(s)\n", changed);
  }
}

NormRuntime::~NormRuntime() {
  NormDestroySession(session_);
  NormDestroyInstance(instance_);
}

bool NormRuntime::next_event(double timeout_s, NormEvent& event) {
  // The descriptor is readable while events are pending; asking first
  // without waiting keeps this correct whether it is level- or edge-like.
  for (int attempt = 0; attempt < 2; ++attempt) {
    while (NormGetNextEvent(instance_, &event, false)) {
      if (event.type != NORM_EVENT_INVALID) return true;
    }
    if (attempt == 1) break;
    pollfd fd{NormGetDescriptor(instance_), POLLIN, 0};
    int ms = timeout_s <= 0 ? 0 : static_cast<int>(std::ceil(timeout_s * 1000.0));
    if (poll(&fd, 1, ms) <= 0) return false;  // timeout, or EINTR from a signal
  }
  return false;
}

const char* event_name(NormEventType type) {
  switch (type) {
    case NORM_EVENT_INVALID: return "EVENT_INVALID";
    case NORM_TX_QUEUE_VACANCY: return "TX_QUEUE_VACANCY";
    case NORM_TX_QUEUE_EMPTY: return "TX_QUEUE_EMPTY";
    case NORM_TX_FLUSH_COMPLETED: return "TX_FLUSH_COMPLETED";
    case NORM_TX_WATERMARK_COMPLETED: return "TX_WATERMARK_COMPLETED";
    case NORM_TX_CMD_SENT: return "TX_CMD_SENT";
    case NORM_TX_OBJECT_SENT: return "TX_OBJECT_SENT";
    case NORM_TX_OBJECT_PURGED: return "TX_OBJECT_PURGED";
    case NORM_TX_RATE_CHANGED: return "TX_RATE_CHANGED";
    case NORM_LOCAL_SENDER_CLOSED: return "LOCAL_SENDER_CLOSED";
    case NORM_REMOTE_SENDER_NEW: return "REMOTE_SENDER_NEW";
    case NORM_REMOTE_SENDER_RESET: return "REMOTE_SENDER_RESET";
    case NORM_REMOTE_SENDER_ADDRESS: return "REMOTE_SENDER_ADDRESS";
    case NORM_REMOTE_SENDER_ACTIVE: return "REMOTE_SENDER_ACTIVE";
    case NORM_REMOTE_SENDER_INACTIVE: return "REMOTE_SENDER_INACTIVE";
    case NORM_REMOTE_SENDER_PURGED: return "REMOTE_SENDER_PURGED";
    case NORM_RX_CMD_NEW: return "RX_CMD_NEW";
    case NORM_RX_OBJECT_NEW: return "RX_OBJECT_NEW";
    case NORM_RX_OBJECT_INFO: return "RX_OBJECT_INFO";
    case NORM_RX_OBJECT_UPDATED: return "RX_OBJECT_UPDATED";
    case NORM_RX_OBJECT_COMPLETED: return "RX_OBJECT_COMPLETED";
    case NORM_RX_OBJECT_ABORTED: return "RX_OBJECT_ABORTED";
    case NORM_RX_ACK_REQUEST: return "RX_ACK_REQUEST";
    case NORM_GRTT_UPDATED: return "GRTT_UPDATED";
    case NORM_CC_ACTIVE: return "CC_ACTIVE";
    case NORM_CC_INACTIVE: return "CC_INACTIVE";
    case NORM_ACKING_NODE_NEW: return "ACKING_NODE_NEW";
    case NORM_SEND_ERROR: return "SEND_ERROR";
    case NORM_USER_TIMEOUT: return "USER_TIMEOUT";
  }
  return "EVENT_UNKNOWN";
}

}  // namespace dissem::norm_baseline
