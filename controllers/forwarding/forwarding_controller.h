// Decision point: should this node rebroadcast a fragment it just received?
// The engine asks once per newly held fragment; a rebroadcast still passes
// the Network Traffic Memory check, so a fragment already heard again within
// the window is not sent a second time.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/random.h"
#include "engine/types.h"

namespace dissem::controllers {

struct ReceivedFragment {
  const MessageMeta& meta;
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  std::uint32_t hops = 0;        // rebroadcasts so far
  bool locally_subscribed = false;
};

struct ForwardDecision {
  bool forward = false;
  Micros delay = 0;  // wait this long first (lets the NTM suppress duplicates)
};

class ForwardingController {
 public:
  virtual ~ForwardingController() = default;
  virtual std::string_view name() const = 0;
  virtual ForwardDecision on_new_fragment(const ReceivedFragment& fragment, Micros now, Random& rng) = 0;
};

// Default for fully connected networks: every node hears the publisher.
class NoForwarding final : public ForwardingController {
 public:
  std::string_view name() const override { return "none"; }
  ForwardDecision on_new_fragment(const ReceivedFragment&, Micros, Random&) override { return {}; }
};

}  // namespace dissem::controllers
