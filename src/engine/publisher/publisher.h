// Our own publications: a message is checked, numbered (durably, never
// reused after a restart), sealed and signed in a keyed group, made durable
// in the cache, tracked, and queued for its first pass at its priority; what
// it replaces or cancels ends here at once (Superseder). Flow control: a
// publication the send budgets have no room for is refused (QueueFull).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/ending/message_expiries.h"
#include "engine/ending/superseder.h"
#include "engine/ending/supersession.h"
#include "engine/message_settled.h"
#include "engine/node_context.h"
#include "engine/node_types.h"
#include "engine/own_publications.h"
#include "engine/security/security.h"
#include "engine/send_queues.h"
#include "wire/codec.h"

namespace dissem::engine {

// What a carried message's frame adds to its bytes on the air (data frame
// header, expiry, bundle item length): the admission of carried messages
// counts it for each message waiting ahead.
inline constexpr std::uint64_t kCarriedFrameHeader = 16;

// How long before its expiry a carried message still leaves for its first
// pass: one full datagram's air time at the link's rate (the bundle it goes
// in) and the bundling delay. Later it would arrive expired.
Micros carried_delivery_margin(const EngineConfig& config);

struct PublisherSources {
  Security& security;
  SendQueues& queues;
  OwnPublications& own;
  MessageExpiries& expiries;
  Superseder& superseder;
  const wire::Limits& limits;
  MessageSettled settled;  // our message, complete: local subscribers get it too
};

class Publisher {
 public:
  Publisher(NodeContext& node, PublisherSources sources) : node_(node), from_(std::move(sources)) {}

  MessageId publish(const PublishRequest& request, Micros now);
  MessageId cancel(const CancelRequest& request, Micros now);
  // Another publisher's message, whole and checked elsewhere (a gateway's
  // other network), carried into this node's network: stored, tracked and
  // queued for a first pass under its own id, at its priority
  // (carried_messages.cpp). Not if held already, nor if it would expire
  // before this link could send it.
  // `send` false: stored and delivered locally, not queued.
  CarryOutcome carry(const MessageMeta& meta, const std::vector<std::uint8_t>& body, bool send, Micros now);

 private:
  // Numbers, stores, queues and applies a message whose meta has all but
  // id, length and digest set.
  MessageId publish_message(const std::string& group, MessageMeta meta, const std::vector<std::uint8_t>& payload,
                            Micros now);
  // Refuses (QueueFull, counted) a publication the send budgets have no room for.
  void admit(const std::string& group, const MessageMeta& meta, std::uint64_t bytes, Micros now);
  // Throws QueueFull if `bytes` more of `group` would exceed a send budget.
  void check_send_budget(const std::string& group, std::uint64_t bytes, Micros now);
  // Our message, numbered, stored and tracked, joins the publication queue at
  // its priority (in the place of the oldest one it replaces, if any).
  // `ahead`: before the messages of its priority that have not begun to go
  // out (a carried message under overload, carried_messages.cpp).
  void enqueue(const MessageMeta& meta, const std::vector<std::uint8_t>& body, Micros now, bool ahead = false);

  // Bytes queued for a first pass at `priority` or above, and taken by the
  // pacer but not yet on the air: what leaves before a message of `priority`
  // that joins the back of its level (`front`: its front, behind only what
  // has begun to go out there).
  std::uint64_t bytes_ahead_of(std::uint32_t priority, Micros now, bool front) const;

  NodeContext& node_;
  PublisherSources from_;
  OwnTags tags_;  // our recent (seq, tag) per group: what a replace names
};

}  // namespace dissem::engine
