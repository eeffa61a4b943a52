// Messages of other publishers that this node carries into its network
// (Publisher::carry): a gateway's relaying from another network, sent as a
// first pass under their own ids, at their priority, if the link can get
// them out before they expire. Admitted behind what waits at their priority
// (each message's bytes and a frame header) when that leaves in time, else
// ahead of it when that does; sent only while they can still arrive
// (carried_delivery_margin). On a slow link under more load than it
// carries, a queue in arrival order otherwise settles where every message
// at its head is as old as its lifetime, and everything sent arrives
// expired; this way the freshest go first and the oldest are shed.
#include <algorithm>

#include "engine/fragmenter.h"
#include "engine/publisher/publisher.h"

namespace dissem::engine {

std::uint64_t Publisher::bytes_ahead_of(std::uint32_t priority, Micros now, bool front) const {
  std::uint64_t ahead = from_.own.paced.owed_total(now);
  from_.queues.publications.for_each([&](const PublicationCursor& c) {
    const std::uint32_t p = node_.tracker.priority_of(c.id);
    const bool begun = c.next_offset > 0 || c.parity_left > 0;
    // Each message's frames carry a header of their own besides its bytes:
    // for small messages (tracks) that is a tenth of what goes on the air.
    if ((p > priority || (p == priority && (!front || begun))) && c.length > c.next_offset)
      ahead += c.length - c.next_offset + kCarriedFrameHeader;
  });
  return ahead;
}

Micros carried_delivery_margin(const EngineConfig& config) {
  const double datagram_bits = 8.0 * static_cast<double>(config.payload_size + config.per_datagram_overhead);
  return static_cast<Micros>(datagram_bits * static_cast<double>(kSeconds) /
                             static_cast<double>(std::max<std::uint64_t>(config.send_rate_bps(), 1))) +
         config.bundle_delay;
}

CarryOutcome Publisher::carry(const MessageMeta& meta, const std::vector<std::uint8_t>& body, bool send, Micros now) {
  if (meta.id.publisher == node_.config.node_id || body.size() != meta.total_length || body.empty())
    return CarryOutcome::Refused;
  if (node_.tracker.settled(meta.id) || node_.store->contains(meta.id)) return CarryOutcome::Held;
  const Micros wall = node_.wall(now);
  if (meta.expired_at(wall)) return CarryOutcome::TooLate;
  bool jump = false;
  if (send && meta.expiry_ms != 0) {
    // Its first pass leaves after what waits at its priority or above: on a
    // slow link a message that would expire on the way is not sent at all.
    // Under more load than the link carries it goes ahead of the messages
    // waiting at its priority instead, when that is in time: they came
    // earlier and have less time left (those that can no longer arrive are
    // dropped when their turn comes), so the freshest go first.
    const auto in_time = [&](bool front) {
      const double bytes = static_cast<double>(bytes_ahead_of(meta.priority, now, front) + meta.total_length) *
                           (1.0 + static_cast<double>(node_.config.per_datagram_overhead) /
                                      static_cast<double>(std::max<std::uint32_t>(node_.config.payload_size, 1)));
      const auto air = static_cast<Micros>(bytes * 8.0 * static_cast<double>(kSeconds) /
                                           static_cast<double>(std::max<std::uint64_t>(node_.config.send_rate_bps(), 1)));
      return to_unix_millis(wall + air + carried_delivery_margin(node_.config)) < meta.expiry_ms;
    };
    if (!in_time(false)) {
      if (!in_time(true)) {
        ++node_.stats.carry_too_late;
        return CarryOutcome::TooLate;
      }
      jump = true;
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
  if (send) enqueue(meta, body, now, jump);
  ++node_.stats.messages_carried;
  from_.settled(meta.id, true, now);
  return CarryOutcome::Carried;
}

}  // namespace dissem::engine
