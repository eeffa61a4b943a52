// How much a requester may make this node send. A request is a few dozen
// bytes; the repairs it names can be megabytes, so without a budget anyone
// on the air could turn a trickle of requests into a flood of repairs (and
// keep every holder's transmitter busy).
//
// Each requester this node knows as a member (it has heard that node's
// beacons) gets a token bucket of bytes: `member_rate_bps` refilled, up to
// `depth` of it held. Requesters it has never heard beacon (an invented id,
// or a node that only asks) share one bucket at `stranger_rate_bps`, so
// rotating ids buys nothing. A request is charged, at arrival, the bytes its
// answer could put on the air (what this node holds of what it names); what
// the bucket cannot cover is trimmed from the request. The bucket's depth is
// also the most any one request can ask for: a receiver cannot plausibly be
// missing more than the link could carry in that time. But never less than
// one answer datagram of a full fragment (`min_depth_bytes`): on a slow link
// 4 s of a share is a few bytes (at 75 bit/s, 19 B for a member, 4 B for
// strangers), and a bucket shallower than one datagram could never pay for
// any answer; with the floor, the refill rate alone sets how often.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "core/types.h"

namespace dissem::engine {

// What one datagram of an answer costs beyond its payload: the dissem header
// (about 50 B with a short group name) and the IP/UDP bytes below it.
constexpr std::uint64_t kAnswerHeaderCost = 64;

class ServeBudget {
 public:
  struct Settings {
    double member_rate_bps = 0;    // per known requester
    double stranger_rate_bps = 0;  // all unknown requesters together
    Micros depth = 0;              // bucket size, in time at its rate
    std::size_t max_members = 1024;
    std::uint64_t min_depth_bytes = 0;  // the bucket's size at least (one answer datagram)
  };

  explicit ServeBudget(const Settings& s) : settings_(s) {}
  void set(const Settings& s) { settings_ = s; }

  // Bytes `requester` may still cause now.
  std::uint64_t available(NodeId requester, bool member, Micros now);
  // Spends `bytes` of `requester`'s budget (at most what is available).
  void charge(NodeId requester, bool member, std::uint64_t bytes, Micros now);
  // A member went silent: its bucket is forgotten (a fresh one is full).
  void forget(NodeId requester) { members_.erase(requester); }
  std::size_t tracked() const { return members_.size(); }

 private:
  struct Bucket {
    double tokens = 0;
    Micros at = 0;
  };
  Bucket& bucket(NodeId requester, bool member, Micros now);
  void refill(Bucket& b, double rate_bps, Micros now) const;

  Settings settings_;
  std::map<NodeId, Bucket> members_;
  Bucket strangers_;
  bool strangers_started_ = false;
};

}  // namespace dissem::engine
