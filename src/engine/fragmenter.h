// Cutting a message into self-describing fragments, and reading the message
// metadata back out of a received fragment header.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "engine/message_expiry.h"
#include "core/types.h"
#include "wire.pb.h"

namespace dissem::engine {

// (offset, length) of each fragment of a `total`-byte message.
std::vector<std::pair<std::uint32_t, std::uint32_t>> fragment_layout(std::uint32_t total,
                                                                     std::uint32_t payload_size);

// `forwarder` is set only on rebroadcasts (hops > 0); 0 leaves the field out.
void fill_fragment(wire::DataFragment& out, const MessageMeta& meta, std::uint32_t offset,
                   std::span<const std::uint8_t> payload, bool repair, std::uint32_t hops, NodeId forwarder = 0);

// Writes the message fields every self-describing datagram carries (a
// DataFragment or a CodedSymbol): the inverse of meta_of.
template <class Datagram>
void fill_message_fields(Datagram& out, const MessageMeta& meta, bool repair) {
  out.set_group(meta.id.group);
  out.set_publisher(meta.id.publisher);
  out.set_seq(meta.id.seq);
  out.set_total_length(meta.total_length);
  out.set_priority(meta.priority);
  out.set_expiry_ms(wire_expiry(meta.expiry_ms));
  out.set_history_window(meta.history_window);
  out.set_repair(repair);
  if (!meta.tag.empty()) out.set_tag(meta.tag);
  out.set_digest(meta.digest);
  if (!meta.signature.empty()) {
    out.set_signature(meta.signature);
    out.set_key_epoch(meta.key_epoch);
    if (!meta.chain.empty()) out.set_chain(meta.chain);
  }
  if (meta.replace) out.set_replace(true);
  if (meta.cancel) out.set_cancel(true);
  for (const std::uint64_t s : meta.supersedes) out.add_supersedes(s);
}

// The message a self-describing datagram names: a DataFragment or a
// CodedSymbol, which carry the same message fields. `now` resolves the
// expiry (engine/message_expiry.h).
template <class Datagram>
MessageMeta meta_of(const Datagram& d, Micros now) {
  MessageMeta m;
  m.id = MessageId{d.group(), d.publisher(), d.seq()};
  m.total_length = d.total_length();
  m.priority = d.priority();
  m.expiry_ms = resolve_expiry(d.expiry_ms(), now);
  m.history_window = d.history_window();
  m.tag = d.tag();
  m.digest = d.digest();
  m.signature = d.signature();
  m.key_epoch = d.key_epoch();
  m.chain = d.chain();
  m.replace = d.replace();
  m.cancel = d.cancel();
  m.supersedes.assign(d.supersedes().begin(), d.supersedes().end());
  return m;
}

}  // namespace dissem::engine
