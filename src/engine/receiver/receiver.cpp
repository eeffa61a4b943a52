#include "engine/receiver/receiver.h"

#include "engine/datagram_sender.h"

namespace dissem::engine {
namespace {

// A publisher's own transmission of its data (not a repair, not a rebroadcast).
bool is_first_pass(const wire::Decoded& d) {
  switch (d.kind) {
    case wire::Kind::Data: return !d.data.repair() && d.data.hops() == 0;
    case wire::Kind::Coded: return !d.coded.repair() && d.coded.hops() == 0;
    case wire::Kind::Window: return !d.window.repair() && d.window.hops() == 0;
    default: return false;
  }
}

NodeId publisher_of_first_pass(const wire::Decoded& d) {
  return d.kind == wire::Kind::Data    ? d.data.publisher()
         : d.kind == wire::Kind::Coded ? d.coded.publisher()
                                       : d.window.publisher();
}

}  // namespace

Receiver::Receiver(NodeContext& node, ReceiverSources sources)
    : node_(node),
      from_(std::move(sources)),
      meter_(node.config.traffic_window),
      first_pass_meter_(node.config.traffic_window) {}

std::optional<DecodeError> Receiver::decode_frame(std::span<const std::uint8_t> bytes, wire::Decoded& out,
                                                  wire::DataContext* context) {
  if (auto err = wire::decode(bytes, from_.limits, out, &from_.naming.refs(), context)) return err;
  if (out.kind == wire::Kind::Data && from_.naming.on_frame(out.data, out.data_info, *node_.store))
    ++node_.stats.group_refs_changed;
  return std::nullopt;
}

void Receiver::on_datagram(std::span<const std::uint8_t> bytes, Micros now) {
  const auto frame = from_.security.open_incoming(bytes);
  if (!frame) return;
  if (auto err = decode_frame(*frame, decoded_, nullptr)) {
    ++node_.stats.malformed[static_cast<std::size_t>(*err)];
    return;
  }
  note_data_frame(decoded_.kind, bytes.size());
  if (decoded_.kind == wire::Kind::Bundle) {
    ++node_.stats.bundles_received;
    wire::DataContext context;
    for (const auto& item : decoded_.items) {
      if (auto err = decode_frame(item, bundle_item_, &context)) {
        ++node_.stats.malformed[static_cast<std::size_t>(*err)];
        continue;
      }
      handle_decoded(bundle_item_, item.size(), now);
    }
  } else {
    handle_decoded(decoded_, bytes.size(), now);
  }
  from_.security.end_datagram();
}

void Receiver::note_data_frame(wire::Kind kind, std::size_t bytes) {
  if (kind == wire::Kind::Data || kind == wire::Kind::Coded || kind == wire::Kind::Window || kind == wire::Kind::Bundle)
    from_.frame_sizes.on_frame(bytes);
}

void Receiver::handle_decoded(wire::Decoded& d, std::size_t size, Micros now) {
  const bool first_pass = is_first_pass(d);
  if (first_pass) from_.peers.touch(publisher_of_first_pass(d), now);
  Stats& stats = node_.stats;
  const std::uint64_t integrity_before = stats.integrity_total();
  const std::uint64_t duplicates_before = stats.duplicate_fragments;
  from_.dispatch(d, size, now);
  // Garbage, data that failed its checks, and a first pass heard twice (a
  // publisher sends each fragment once: a second copy is a replay) are not
  // metered, or anyone could silence the members by transmitting junk
  // (channel_share.h).
  if (stats.integrity_total() != integrity_before) return;
  const bool replayed_first_pass = first_pass && d.kind == wire::Kind::Data &&
                                   stats.duplicate_fragments != duplicates_before;
  if (replayed_first_pass) return;
  meter_.add(now, size);
  from_.links.on_received(sender_of(d, from_.security.sealer()), size, now, from_.peers);
  if (first_pass) first_pass_meter_.add(now, size + node_.config.per_datagram_overhead);
}

}  // namespace dissem::engine
