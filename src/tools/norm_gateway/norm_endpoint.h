// The gateway's NORM side: one libnorm session that is both a sender and a
// receiver of NORM_OBJECT_DATA objects, set up from [norm]. Objects handed
// to enqueue() are kept until NORM purges them from its transmit cache;
// completed objects from other senders are copied out and handed on.
#pragma once

#include <normApi.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "tools/norm_gateway/gateway_config.h"

namespace dissem::norm_gateway {

struct NormError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NormCounters {
  std::uint64_t objects_received = 0;
  std::uint64_t objects_aborted = 0;
  std::uint64_t objects_unsupported = 0;  // files and streams: not bridged
  std::uint64_t objects_sent = 0;         // first pass done
  std::uint64_t objects_purged = 0;
  std::uint64_t enqueue_refused = 0;      // transmit cache full at that moment
  std::uint64_t send_errors = 0;
};

class NormEndpoint {
 public:
  struct Handlers {
    // An object's info, as soon as it arrives (before its data).
    std::function<void(std::span<const std::uint8_t> info)> info;
    std::function<void(std::uint32_t sender, std::vector<std::uint8_t> info, std::vector<std::uint8_t> data)>
        object;
  };

  // Creates the session and starts sending and receiving. Throws NormError
  // naming the [norm] key that NORM refused.
  explicit NormEndpoint(const GatewayConfig& config);
  ~NormEndpoint();
  NormEndpoint(const NormEndpoint&) = delete;
  NormEndpoint& operator=(const NormEndpoint&) = delete;

  // False when NORM has no room for the object now (its transmit cache
  // bounds); try again after some events were handled.
  bool enqueue(std::span<const std::uint8_t> info, std::vector<std::uint8_t> data);

  // Handles every pending event, waiting up to `wait` for the first.
  void pump(std::chrono::milliseconds wait, const Handlers& handlers);

  std::uint32_t local_node_id() const;
  std::size_t held_objects() const { return held_.size(); }
  const NormCounters& counters() const { return counters_; }

 private:
  void handle(const NormEvent& event, const Handlers& handlers);

  NormInstanceHandle instance_ = NORM_INSTANCE_INVALID;
  NormSessionHandle session_ = NORM_SESSION_INVALID;
  // Enqueued objects' data, alive until NORM purges them.
  std::map<NormObjectHandle, std::vector<std::uint8_t>> held_;
  NormCounters counters_;
};

}  // namespace dissem::norm_gateway
