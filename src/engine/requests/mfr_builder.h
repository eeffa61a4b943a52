// Building missing-fragment requests (MFRs), DisService style: each round
// lists a random subset of what is missing (each eligible item joins with
// probability p), packed up to a byte budget; every item listed backs off
// exponentially before it may be listed again.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/message_tracker.h"
#include "core/random.h"
#include "wire.pb.h"

namespace dissem::engine {

// Coded requests: the block deficits to ask for a message instead of its
// byte ranges (nullopt: ask by ranges; empty: nothing of it is due yet).
using BlockNeedsFn = std::function<std::optional<std::vector<wire::BlockNeed>>(const MessageId&, const MessageState&,
                                                                               const MissingRanges&)>;

struct RequestRoundParams {
  NodeId self = 0;
  double probability = 0.7;
  std::size_t max_bytes = 1400;        // encoded MFR size limit, prefix included
  Micros backoff_base = 0;             // first re-request interval
  double drain_us_per_byte = 0;        // added per byte requested in the round
  // Answers to a request for whole messages or ranges take longer the more
  // items compete for the air (the request's and those already awaiting an
  // answer): a re-request waits this per item besides.
  Micros answer_spread_per_item = 0;
  std::uint32_t max_backoff_exponent = 5;
  Micros tail_timeout = 0;
  std::uint32_t tail_chunk = 0xffffffffu;  // bytes of a silent tail asked for at once
  BlockNeedsFn block_needs;
  // Missing messages asked for by window (WindowNeed), not listed here.
  std::function<bool(const MessageId&, const MessageState&)> window_member;
};

struct RequestRound {
  wire::MissingFragmentRequest request;
  std::size_t items = 0;       // messages listed
  std::size_t candidates = 0;  // messages that were eligible
};

// Returns nullopt when nothing is eligible. `wanted(group)` says whether this
// node requests missing data of a group (a reliable subscription exists).
std::optional<RequestRound> build_request_round(MessageTracker& tracker,
                                                const std::function<bool(const std::string&)>& wanted,
                                                const RequestRoundParams& params, Micros now, Random& rng);

// Another node's MFR lists items we miss too: its answer will reach us as
// well, so defer our own request for every item the MFR fully covers (for a
// coded request: names every block we need, whatever the deficit; for a
// window request, when coding is on (`block_needs` given): every message lost
// whole in its span), in the
// groups `deferrable` accepts (all when empty). A relay must not defer: in a
// multi-hop network the requester may be behind it, hearing only it, and
// would keep deferring the relay's own request forever.
void defer_overheard_requests(MessageTracker& tracker, const wire::MissingFragmentRequest& request,
                              Micros now, Micros defer, Micros tail_timeout,
                              const std::function<bool(const std::string&)>& deferrable = {},
                              const BlockNeedsFn& block_needs = {});

}  // namespace dissem::engine
