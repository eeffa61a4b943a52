// Answering other nodes' requests (MFRs): what a requester may still ask
// of this node (its serving budget, serve_budget.h) is cut from the
// request first; byte ranges and whole messages are scheduled as answers
// after their random delay or their rank's turn (responder_rank.h), block
// deficits after the nodes holding the whole block had their chance, window
// requests by the window coder. When an answer is due, what the traffic
// memories heard since the request is left out and the rest joins the
// repair queues: plain fragments, or coded symbols (fresh, or recoded by a
// partial holder).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "engine/coders/block_coder.h"
#include "engine/coders/block_traffic_memory.h"
#include "engine/network_traffic_memory.h"
#include "engine/node_context.h"
#include "engine/peers.h"
#include "engine/repair/request_server.h"
#include "engine/send_queues.h"
#include "engine/repair/serve_budget.h"
#include "engine/timing.h"
#include "engine/coders/window_coder.h"
#include "wire/codec.h"

namespace dissem::engine {

// The parts serving reads or feeds.
struct RepairServerSources {
  BlockCoder& coder;
  WindowCoder& windows;
  BlockTrafficMemory& block_memory;
  NetworkTrafficMemory& ntm;
  SendQueues& queues;  // the repair and coded queues it fills; the publications it reads
  const Timing& timing;
  const PeerTable& peers;
};

class RepairServer {
 public:
  RepairServer(NodeContext& node, RepairServerSources sources);

  // A request from an established or new neighbour that this node serves:
  // trimmed to the requester's budget, then its answers scheduled.
  void on_request(wire::MissingFragmentRequest& r, Micros now);
  // Answers whose delay is over join the repair queues.
  void serve_due(Micros now);
  std::optional<Micros> next_due() const { return server_.next_due(); }
  // A neighbour went silent: its budget is forgotten.
  void forget(NodeId peer) { budget_.forget(peer); }
  // This node went silent (EMCON): the answers waiting for their delay are
  // dropped (others answer; ours would be stale when silence ends).
  void drop_pending() { server_.take_due(std::numeric_limits<Micros>::max()); }

 private:
  // A whole message or byte ranges of it that a request asks of this node.
  struct Answer {
    MessageId id;
    bool whole;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  };

  // request_budget.cpp: trims `r` to what its requester's serving budget covers.
  void budget_request(wire::MissingFragmentRequest& r, Micros now);
  // Cuts a plain item to the held fragments `allowed` covers; returns their cost.
  std::uint64_t trim_plain(const MessageId& id, const MessageState& st, wire::MessageWants& m, std::uint64_t allowed);
  // The part of a deficit of symbols `allowed` covers (spent from it).
  std::uint32_t trim_deficit(std::uint32_t deficit, std::uint32_t symbol_size, std::uint64_t& allowed);

  std::vector<Answer> plain_answers(const wire::MissingFragmentRequest& r, std::uint64_t& air_bytes, Micros now);
  void schedule_answers(NodeId requester, const std::vector<Answer>& answers, std::uint64_t air_bytes, Micros now);
  // A coded request for `m`'s blocks.
  void on_block_request(const MessageId& id, const wire::MessageWants& m, Micros now);
  // Our own first pass has yet to send (all of) `block` of `id`.
  bool first_pass_pending(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block) const;
  void serve_block(const ServeTask& task, const MessageState& st, std::uint32_t block, const BlockAsk& ask,
                   Micros now);
  void queue_fragment_repairs(const ServeTask& task, std::vector<std::uint32_t> offsets, Micros now);

  NodeContext& node_;
  RepairServerSources from_;
  RequestServer server_;
  ServeBudget budget_;
};

}  // namespace dissem::engine
