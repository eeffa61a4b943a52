#include "counters.h"

#include <fmt/format.h>

namespace dissem::emu {
namespace {

std::string node_fields(const NodeCounters& c) {
  return fmt::format(
      "\"frames_sent\": {}, \"bytes_sent\": {}, \"broadcast_sent\": {}, \"multicast_sent\": {}, "
      "\"unicast_sent\": {}, \"unknown_unicast_dropped\": {}, \"runt_dropped\": {}, "
      "\"radio_queue_dropped\": {}, \"frames_received\": {}, \"bytes_received\": {}, \"tap_write_errors\": {}",
      c.frames_sent, c.bytes_sent, c.broadcast_sent, c.multicast_sent, c.unicast_sent,
      c.unknown_unicast_dropped, c.runt_dropped, c.radio_queue_dropped, c.frames_received, c.bytes_received,
      c.tap_write_errors);
}

std::string link_fields(const LinkCounters& c) {
  return fmt::format(
      "\"offered\": {}, \"delivered\": {}, \"bytes_delivered\": {}, \"lost\": {}, \"queue_dropped\": {}, "
      "\"duplicated\": {}, \"half_duplex_dropped\": {}, \"in_flight\": {}",
      c.offered, c.delivered, c.bytes_delivered, c.lost, c.queue_dropped, c.duplicated, c.half_duplex_dropped,
      c.in_flight());
}

}  // namespace

NodeCounters Counters::node_totals() const {
  NodeCounters t;
  for (const auto& c : node_) {
    t.frames_sent += c.frames_sent;
    t.bytes_sent += c.bytes_sent;
    t.broadcast_sent += c.broadcast_sent;
    t.multicast_sent += c.multicast_sent;
    t.unicast_sent += c.unicast_sent;
    t.unknown_unicast_dropped += c.unknown_unicast_dropped;
    t.runt_dropped += c.runt_dropped;
    t.radio_queue_dropped += c.radio_queue_dropped;
    t.frames_received += c.frames_received;
    t.bytes_received += c.bytes_received;
    t.tap_write_errors += c.tap_write_errors;
  }
  return t;
}

LinkCounters Counters::link_totals() const {
  LinkCounters t;
  for (const auto& c : link_) {
    t.offered += c.offered;
    t.lost += c.lost;
    t.queue_dropped += c.queue_dropped;
    t.duplicated += c.duplicated;
    t.half_duplex_dropped += c.half_duplex_dropped;
    t.delivered += c.delivered;
    t.bytes_delivered += c.bytes_delivered;
  }
  return t;
}

std::string Counters::json_members() const {
  std::string out = "\"totals\": {\"nodes\": {";
  out.append(node_fields(node_totals())).append("}, \"links\": {").append(link_fields(link_totals()));
  out.append("}},\n\"nodes\": [");
  for (std::size_t i = 0; i < nodes_; ++i) {
    out.append(i == 0 ? "\n" : ",\n");
    out.append(fmt::format("  {{\"id\": {}, {}}}", i + 1, node_fields(node_[i])));
  }
  out.append("],\n\"links\": [");
  bool first = true;
  for (NodeId from = 1; from <= nodes_; ++from) {
    for (NodeId to = 1; to <= nodes_; ++to) {
      const LinkCounters& c = link(from, to);
      if (!c.any()) continue;
      out.append(first ? "\n" : ",\n");
      first = false;
      out.append(fmt::format("  {{\"from\": {}, \"to\": {}, {}}}", from, to, link_fields(c)));
    }
  }
  out.append("]");
  return out;
}

}  // namespace dissem::emu
