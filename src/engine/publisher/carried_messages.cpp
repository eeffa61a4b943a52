// Messages of other publishers that this node carries into its network
// (Publisher::carry): a gateway's relaying from another network, sent as a
// first pass under their own ids, at their priority, if the link can get
// them out before they expire.
#include <algorithm>

#include "engine/fragmenter.h"
#include "engine/publisher/publisher.h"

namespace dissem::engine {

std::uint64_t Publisher::bytes_ahead_of(std::uint32_t priority, Micros now) const {
  std::uint64_t ahead = from_.own.paced.owed_total(now);
  from_.queues.publications.for_each([&](const PublicationCursor& c) {
    if (node_.tracker.priority_of(c.id) >= priority) ahead += c.length > c.next_offset ? c.length - c.next_offset : 0;
  });
  return ahead;
}

CarryOutcome Publisher::carry(const MessageMeta& meta, const std::vector<std::uint8_t>& body, bool send, Micros now) {
  if (meta.id.publisher == node_.config.node_id || body.size() != meta.total_length || body.empty())
    return CarryOutcome::Refused;
  if (node_.tracker.settled(meta.id) || node_.store->contains(meta.id)) return CarryOutcome::Held;
  const Micros wall = node_.wall(now);
  if (meta.expired_at(wall)) return CarryOutcome::TooLate;
  if (send && meta.expiry_ms != 0) {
    // Its first pass leaves after what waits at its priority or above: on a
    // slow link a message that would expire on the way is not sent at all.
    const double bytes = static_cast<double>(bytes_ahead_of(meta.priority, now) + meta.total_length) *
                         (1.0 + static_cast<double>(node_.config.per_datagram_overhead) /
                                    static_cast<double>(std::max<std::uint32_t>(node_.config.payload_size, 1)));
    const auto air = static_cast<Micros>(bytes * 8.0 * static_cast<double>(kSeconds) /
                                         static_cast<double>(std::max<std::uint64_t>(node_.config.send_rate_bps(), 1)));
    if (to_unix_millis(wall + air) >= meta.expiry_ms) {
      ++node_.stats.carry_too_late;
      return CarryOutcome::TooLate;
    }
  }
  if (!node_.cache_write(
          [&] {
            for (const auto& [off, len] : fragment_layout(meta.total_length, node_.config.payload_size))
              node_.store->put_fragment(meta, off, std::span(body).subspan(off, len), now);
            node_.store->mark_complete(meta.id);
            node_.store->flush();
          },
          now))
    return CarryOutcome::Refused;
  node_.tracker.restore(meta, true, {}, now);
  from_.expiries.note(meta);
  if (send) enqueue(meta, body, now);
  ++node_.stats.messages_carried;
  from_.settled(meta.id, true, now);
  return CarryOutcome::Carried;
}

}  // namespace dissem::engine
