// The receive path's front: every datagram is opened (sealed groups),
// decoded with our group references, unbundled, and handed to its kind's
// handler (the node's dispatch), then metered. Malformed input is counted
// and dropped, nothing else. A burst read together is handled as one: the
// local subscriptions' deliveries wait for its end (one cache commit), and
// in keyed groups its signatures are checked newest first, so one
// verification can vouch for a stream's earlier messages
// (security/manifest_chain.h).
//
// The meters measure the members' traffic, what the MFR gate and the
// channel share yield to: others' datagrams that passed their checks.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "engine/frame_size_estimate.h"
#include "engine/group_naming.h"
#include "engine/incoming_traffic_meter.h"
#include "engine/link_quality.h"
#include "engine/node_context.h"
#include "engine/peers.h"
#include "engine/security/security.h"
#include "engine/subscribers/local_subscribers.h"
#include "wire/codec.h"

namespace dissem::engine {

// A decoded frame to its kind's handler; `size` is its datagram's (or bundle item's).
using FrameDispatch = std::function<void(wire::Decoded& frame, std::size_t size, Micros now)>;

struct ReceiverSources {
  Security& security;
  GroupNaming& naming;
  const wire::Limits& limits;
  PeerTable& peers;
  LinkQuality& links;
  FrameSizeEstimate& frame_sizes;  // data frames heard, for timing
  LocalSubscribers& subscribers;
  FrameDispatch dispatch;
};

class Receiver {
 public:
  Receiver(NodeContext& node, ReceiverSources sources);

  void on_datagram(std::span<const std::uint8_t> bytes, Micros now);
  // A burst of datagrams read together: handled in order, as one by one,
  // with the signatures of keyed groups checked newest first.
  void on_datagrams(std::span<const std::span<const std::uint8_t>> batch, Micros now);

  // Others' datagrams: the MFR gate; with framing, the channel occupancy they cause.
  IncomingTrafficMeter& traffic() { return meter_; }
  // Of which others' first passes (publications and their parity), framing included.
  IncomingTrafficMeter& first_passes() { return first_pass_meter_; }

 private:
  // One datagram of a batch, opened and decoded.
  struct BatchItem {
    wire::Decoded decoded;
    NodeId sealer = 0;
    std::size_t size = 0;
    bool usable = false;
  };

  // wire::decode with our group references; learns the ones a data frame announces.
  std::optional<DecodeError> decode_frame(std::span<const std::uint8_t> bytes, wire::Decoded& out,
                                          wire::DataContext* context);
  // A datagram opened (sealer set) and decoded into `d`: its handler, then the meters.
  void handle_decoded(wire::Decoded& d, std::size_t size, Micros now);
  void note_data_frame(wire::Kind kind, std::size_t bytes);
  // Keyed groups: the batch's signatures checked together, then its items handled in order.
  void handle_sealed_batch(std::span<const std::span<const std::uint8_t>> batch, Micros now);
  // The manifests the batch's data would be taken with.
  std::vector<MessageMeta> manifests_ahead(std::span<const BatchItem> items, Micros now) const;

  NodeContext& node_;
  ReceiverSources from_;
  wire::Decoded decoded_;      // reused decode target
  wire::Decoded bundle_item_;  // ... and for the items of a bundle
  std::vector<BatchItem> batch_items_;  // reused across batches
  IncomingTrafficMeter meter_;
  IncomingTrafficMeter first_pass_meter_;
};

}  // namespace dissem::engine
