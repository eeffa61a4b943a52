// Replication (anti-entropy) as traffic: the replication controller
// (controllers/replication/) decides when to summarise and what to push;
// the Replicator builds our summaries, answers peers' summaries through the
// controller, and turns its pushes into traffic that obeys the rules of
// repairs: pushes wait a random delay, pass through a byte budget (the
// controller's share of the link), then the repair queue (pacer, priority
// split), and are dropped if the NTM saw them on the air since the summary.
// It owns that traffic's state (replication_pushes.h); what a peer's
// summary says it holds is handed back for the node to fetch like any gap.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "controllers/node_view.h"
#include "controllers/replication/replication_controller.h"
#include "engine/network_traffic_memory.h"
#include "engine/node_context.h"
#include "engine/rate_limiter.h"
#include "engine/replication/replication_pushes.h"
#include "engine/send_queues.h"
#include "engine/timing.h"
#include "wire/codec.h"

namespace dissem::engine {

// The parts the Replicator reads or feeds.
struct ReplicatorSources {
  // In force (Node::set_replication_controller replaces it at run time).
  const std::unique_ptr<controllers::ReplicationController>& controller;
  const controllers::NodeView& view;
  const Timing& timing;
  NetworkTrafficMemory& ntm;
  SendQueues& queues;  // pushes join its repair queue
  const Pacer& pacer;
};

class Replicator {
 public:
  Replicator(NodeContext& node, ReplicatorSources sources) : node_(node), from_(sources) {}

  // The push budget fills from `now`.
  void start(Micros now) { pushes_.tokens_at = now; }
  bool active() const { return from_.controller->active(); }

  // `peer` was heard for the first time, or again after going silent: the
  // delay before our summary (scheduled), or nullopt if the controller
  // sends none.
  std::optional<Micros> on_contact(NodeId peer, Micros now);
  // Our next summary at `due` at the latest; `reply`: it answers a peer's.
  void schedule_summary(Micros due, bool reply);
  bool summary_due_by(Micros now) const { return pushes_.summary_due && now >= *pushes_.summary_due; }
  // Our summary, now: the groups we want (`wanted`), then as many streams
  // of what we hold of them as fit one datagram.
  std::vector<std::uint8_t> build_summary(const std::vector<std::string>& wanted, Micros now);

  // What a peer's summary says it holds in the groups we want, to fetch
  // like any gap, and when our requests may start (after its pushes).
  struct Pull {
    Micros not_before = 0;
    std::vector<controllers::HeldStream> streams;
  };
  // A peer's summary: the controller's reply and pushes scheduled. The pull
  // when the controller learns from summaries, else nullopt.
  std::optional<Pull> on_summary(const wire::Summary& summary, Micros now);

  // Pushes whose delay is over become fragments waiting for the budget.
  void start_due_pushes(Micros now);
  // Fragments the budget allows join the repair queue.
  void release_pushes(Micros now);
  // When the summary, a push or the budget next needs the timer.
  std::optional<Micros> next_deadline() const;

 private:
  double push_cost(const QueuedFragment& f) const;
  double push_rate() const;
  Micros next_push_time() const;

  NodeContext& node_;
  ReplicatorSources from_;
  ReplicationPushes pushes_;
};

}  // namespace dissem::engine
