// What happened to the frames: per node (what it sent, what reached it) and
// per ordered link, with totals, exported as JSON for the stats file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/json.h"
#include "link_effects.h"

namespace dissem::emu {

struct NodeCounters {
  std::uint64_t frames_sent = 0;  // read from the node's TAP (offered to the emulator)
  std::uint64_t bytes_sent = 0;
  std::uint64_t broadcast_sent = 0;
  std::uint64_t multicast_sent = 0;
  std::uint64_t unicast_sent = 0;
  std::uint64_t unknown_unicast_dropped = 0;  // unicast to a MAC no other node owns
  std::uint64_t runt_dropped = 0;             // shorter than an Ethernet header
  std::uint64_t radio_queue_dropped = 0;      // drop-tail at the sender's radio or shared channel
  std::uint64_t frames_received = 0;          // copies handed to the node's TAP
  std::uint64_t bytes_received = 0;
  std::uint64_t tap_write_errors = 0;  // copies the kernel refused (counted in frames_received too)
};

struct LinkCounters {
  std::uint64_t offered = 0;  // frames that reached this link (after the radio stage)
  std::uint64_t lost = 0;     // loss draw (EEL loss, Gilbert-Elliott, or a disconnected link)
  std::uint64_t queue_dropped = 0;  // drop-tail at the link's rate limit
  std::uint64_t duplicated = 0;     // extra copies made
  std::uint64_t half_duplex_dropped = 0;  // due while the receiver was on the air (half-duplex channel)
  std::uint64_t delivered = 0;      // copies handed to the receiver, duplicates included
  std::uint64_t bytes_delivered = 0;

  // Copies still waiting for their delivery time when the counters are read.
  std::uint64_t in_flight() const {
    return offered + duplicated - lost - queue_dropped - half_duplex_dropped - delivered;
  }
  bool any() const { return offered != 0 || duplicated != 0 || delivered != 0; }
};

class Counters {
 public:
  explicit Counters(std::size_t nodes) : nodes_(nodes), node_(nodes), link_(nodes * nodes) {}

  std::size_t nodes() const { return nodes_; }
  NodeCounters& node(NodeId id) { return node_[id - 1]; }
  const NodeCounters& node(NodeId id) const { return node_[id - 1]; }
  LinkCounters& link(NodeId from, NodeId to) { return link_[(from - 1) * nodes_ + (to - 1)]; }
  const LinkCounters& link(NodeId from, NodeId to) const { return link_[(from - 1) * nodes_ + (to - 1)]; }

  NodeCounters node_totals() const;
  LinkCounters link_totals() const;

  // {"totals": {...}, "nodes": [...], "links": [...]}: members for the caller's
  // object. Links that saw nothing are left out (N^2 of them would drown the rest).
  Json json_members() const;

 private:
  std::size_t nodes_;
  std::vector<NodeCounters> node_;
  std::vector<LinkCounters> link_;
};

}  // namespace dissem::emu
