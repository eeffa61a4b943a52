// Request rounds: what this node misses, as one probabilistic MFR per round
// (mfr_builder builds it from the tracker). For messages whose block layout
// is known, with coding on, the MFR states a deficit per block instead of
// byte ranges, once the block's first pass is seen to be over; lost small
// messages of a stream are asked for together, by window. A round runs
// every timing.request_round, and never before the last MFR's share of the
// control budget has passed (link_timers.h). The node gates it by the
// traffic it hears and sends what it builds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/coders/block_coder.h"
#include "engine/coders/window_coder.h"
#include "engine/node_context.h"
#include "engine/reception_meter.h"
#include "engine/requests/mfr_builder.h"
#include "engine/requests/request_round_clock.h"
#include "engine/timing.h"
#include "wire/codec.h"

namespace dissem::engine {

// The parts request rounds read.
struct RequestRoundsSources {
  BlockCoder& coder;  // layouts, decoders, the last block heard
  WindowCoder& windows;
  const ReceptionMeter& reception;  // the publishers' pace and loss
  const Timing& timing;
};

class RequestRounds {
 public:
  // Whether this node requests missing data of a group.
  using WantsGroup = std::function<bool(const std::string&)>;

  RequestRounds(NodeContext& node, RequestRoundsSources sources) : node_(node), from_(sources) {}

  // The first round is due at `now`.
  void start(Micros now) { clock_.next = now; }
  Micros next() const { return clock_.next; }
  // This round's MFR, encoded: what this node misses in the groups it
  // wants, within the round's byte budget; nullopt when it asks for nothing.
  std::optional<std::vector<std::uint8_t>> build(const WantsGroup& wanted, Micros now);
  // A round ran (or was gated): the next one's time.
  void round_done(Micros now) { clock_.next = std::max(now + from_.timing.request_round, clock_.spacing_until); }

  // The coded request entries for a message missing `missing`: nullopt, ask
  // by ranges (layout unknown); empty, no block is due yet.
  std::optional<std::vector<wire::BlockNeed>> block_needs(const MessageId& id, const MessageState& st,
                                                          const MissingRanges& missing, Micros now);

 private:
  // How far the first pass of a message with a known layout is seen to have
  // gone (`end`: past the message when a later one of its stream arrived),
  // and whether it has been silent long enough to be a tail.
  struct FirstPassSeen {
    std::uint32_t end = 0;
    bool silent = false;
  };
  FirstPassSeen first_pass_seen(const MessageId& id, const MessageState& st, const coding::BlockLayout& layout,
                                Micros now) const;
  // A lost small message, with whether it may be asked for now: its backoff
  // is over, and it has waited as kRequestWindows says.
  struct LostSmall {
    std::uint64_t seq;
    MessageState* state;
    bool due;
  };
  std::map<StreamId, std::vector<LostSmall>> lost_small(const WantsGroup& wanted, Micros now);
  // The window requests of this round (lost small messages of each
  // stream), each member backed off; at most `max_bytes` encoded.
  std::vector<wire::PublisherWants> window_requests(const WantsGroup& wanted, std::size_t max_bytes, Micros now);

  NodeContext& node_;
  RequestRoundsSources from_;
  RequestRoundClock clock_;
};

}  // namespace dissem::engine
