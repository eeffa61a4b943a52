#include "counters.h"


namespace dissem::emu {
namespace {

Json node_fields(const NodeCounters& c) {
  return {{"frames_sent", c.frames_sent},
          {"bytes_sent", c.bytes_sent},
          {"broadcast_sent", c.broadcast_sent},
          {"multicast_sent", c.multicast_sent},
          {"unicast_sent", c.unicast_sent},
          {"unknown_unicast_dropped", c.unknown_unicast_dropped},
          {"runt_dropped", c.runt_dropped},
          {"radio_queue_dropped", c.radio_queue_dropped},
          {"frames_received", c.frames_received},
          {"bytes_received", c.bytes_received},
          {"tap_write_errors", c.tap_write_errors}};
}

Json link_fields(const LinkCounters& c) {
  return {{"offered", c.offered},
          {"delivered", c.delivered},
          {"bytes_delivered", c.bytes_delivered},
          {"lost", c.lost},
          {"queue_dropped", c.queue_dropped},
          {"duplicated", c.duplicated},
          {"half_duplex_dropped", c.half_duplex_dropped},
          {"in_flight", c.in_flight()}};
}

// `head` (an object) followed by the members of `fields`.
Json joined(Json head, const Json& fields) {
  head.update(fields);
  return head;
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

Json Counters::json_members() const {
  Json nodes = Json::array();
  for (std::size_t i = 0; i < nodes_; ++i) nodes.push_back(joined({{"id", i + 1}}, node_fields(node_[i])));
  Json links = Json::array();
  for (NodeId from = 1; from <= nodes_; ++from) {
    for (NodeId to = 1; to <= nodes_; ++to) {
      const LinkCounters& c = link(from, to);
      if (c.any()) links.push_back(joined({{"from", from}, {"to", to}}, link_fields(c)));
    }
  }
  Json j;
  j["totals"] = {{"nodes", node_fields(node_totals())}, {"links", link_fields(link_totals())}};
  j["nodes"] = std::move(nodes);
  j["links"] = std::move(links);
  return j;
}

}  // namespace dissem::emu
