// dissem-norm-gateway's main loop: a NORM session on one side, the local
// dissemd on the other, and a BridgePolicy between them.
//
// The dissem side is a durable subscription named [gateway] name: what is
// delivered while the gateway is down or reconnecting is delivered again
// later, and a message is acknowledged once it is on NORM (or dropped by
// the policy). When dissemd goes away the gateway keeps the NORM session,
// holds what it has to publish, and reconnects with backoff up to
// dissem.reconnect_max_s.
#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include "client/client.h"
#include "tools/norm_gateway/bridge_policy.h"
#include "tools/norm_gateway/gateway_config.h"
#include "tools/norm_gateway/norm_endpoint.h"

namespace dissem::norm_gateway {

class Gateway {
 public:
  // Starts the NORM session (throws NormError); dissemd is connected in run().
  explicit Gateway(const GatewayConfig& config);

  // Bridges until `stop` becomes true; returns the process's exit code.
  int run(const std::atomic<bool>& stop);

 private:
  void connect_dissem(Micros now);
  void disconnected(Micros now, const char* what);
  void pump_dissem(std::chrono::milliseconds wait, Micros now);
  void send_due(Micros now);
  void learn_copies_in_flight(Micros now);
  void write_status(Micros now, bool final);
  std::chrono::milliseconds wait_budget(Micros now) const;

  GatewayConfig config_;
  BridgePolicy policy_;
  NormEndpoint norm_;
  NormEndpoint::Handlers norm_handlers_;
  client::Client dissem_;
  engine::SubscriptionId subscription_ = 0;
  Micros next_connect_ = 0;
  Micros reconnect_backoff_ = 0;
  Micros next_status_ = 0;
  std::uint64_t reconnects_ = 0;
  std::uint64_t publish_failures_ = 0;
};

}  // namespace dissem::norm_gateway
