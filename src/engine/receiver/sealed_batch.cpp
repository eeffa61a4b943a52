// A burst of datagrams handed over together (dissemd passes each socket
// wake-up's): deliveries wait for the burst's end, so one commit makes all
// its completed messages durable; in keyed groups the burst's signatures are
// checked newest first, so one verification can vouch for a stream's
// earlier messages (engine/security/manifest_chain.h).
#include "engine/fragmenter.h"
#include "engine/receiver/receiver.h"

namespace dissem::engine {

void Receiver::on_datagrams(std::span<const std::span<const std::uint8_t>> batch, Micros now) {
  if (batch.size() <= 1) {
    for (const auto& bytes : batch) on_datagram(bytes, now);
    return;
  }
  from_.subscribers.delivery().hold();
  if (node_.config.security.groups.empty()) {
    for (const auto& bytes : batch) on_datagram(bytes, now);
  } else {
    handle_sealed_batch(batch, now);
  }
  from_.subscribers.delivery().release(now);
}

void Receiver::handle_sealed_batch(std::span<const std::span<const std::uint8_t>> batch, Micros now) {
  Security& security = from_.security;
  Stats& stats = node_.stats;
  // Bundles are opened into their items: each is one entry of the batch.
  std::size_t used = 0;
  auto next_entry = [&]() -> BatchItem& {
    if (batch_items_.size() <= used) batch_items_.resize(used + 1);
    BatchItem& item = batch_items_[used++];
    item.usable = false;
    return item;
  };
  for (const auto& datagram : batch) {
    const auto frame = security.open_incoming(datagram);
    if (!frame) continue;
    BatchItem& item = next_entry();
    if (auto err = decode_frame(*frame, item.decoded, nullptr)) {
      ++stats.malformed[static_cast<std::size_t>(*err)];
      continue;
    }
    note_data_frame(item.decoded.kind, datagram.size());
    item.sealer = security.sealer();
    item.size = datagram.size();
    item.usable = true;
    if (item.decoded.kind != wire::Kind::Bundle) continue;
    ++stats.bundles_received;
    item.usable = false;
    const auto received = item.decoded.items;  // entries may move as the batch grows
    const NodeId bundle_sealer = security.sealer();
    wire::DataContext context;
    for (const auto& bytes : received) {
      BatchItem& inner = next_entry();
      if (auto err = decode_frame(bytes, inner.decoded, &context)) {
        ++stats.malformed[static_cast<std::size_t>(*err)];
        continue;
      }
      inner.sealer = bundle_sealer;
      inner.size = bytes.size();
      inner.usable = true;
    }
  }
  const std::span items(batch_items_.data(), used);
  security.authenticate_ahead(manifests_ahead(items, now));
  for (BatchItem& item : items) {
    if (!item.usable) continue;
    security.set_sealer(item.sealer);
    handle_decoded(item.decoded, item.size, now);
  }
  security.end_batch();
}

std::vector<MessageMeta> Receiver::manifests_ahead(std::span<const BatchItem> items, Micros now) const {
  std::vector<MessageMeta> metas;
  const Micros wall = node_.wall(now);
  for (const BatchItem& item : items) {
    if (!item.usable) continue;
    MessageMeta meta;
    if (item.decoded.kind == wire::Kind::Data) {
      meta = meta_of(item.decoded.data, wall);
    } else if (item.decoded.kind == wire::Kind::Coded && node_.config.coding) {
      meta = meta_of(item.decoded.coded, wall);
    } else {
      continue;
    }
    // Only data the handlers would take (handle_data, on_coded_symbol).
    if (!from_.subscribers.subscriptions().any(meta.id.group) && !node_.config.cache_unsubscribed) continue;
    if (meta.expired_at(wall)) continue;
    metas.push_back(std::move(meta));
  }
  return metas;
}

}  // namespace dissem::engine
