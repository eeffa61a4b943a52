// Link events for applications: a neighbour appeared or fell silent, or its
// loss or received rate crossed a threshold. Each threshold has a band below
// it (hysteresis): a link is "above" once its value exceeds the threshold and
// back "below" only once it drops under threshold - band, so a value
// hovering at the threshold raises one event, not one per evaluation.
//
// Loss: the worst known direction (LinkSample::worst_loss); the band is
// absolute (loss fractions). Rate: the bytes per second received from the
// neighbour; the band is relative (a fraction of the threshold); threshold 0
// turns rate events off. A neighbour starts below both thresholds when it
// appears.
//
// The engine runs one LinkWatch with engine.link_* thresholds (events of
// kind Event::Kind::LinkChanged); the daemon runs one per IPC client that
// asked for its own thresholds. Sans-I/O: samples in, events out. Memory:
// one record per neighbour of the last samples (bounded by max_peers).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/link_quality.h"
#include "engine/link_thresholds.h"

namespace dissem::engine {

// Throws std::invalid_argument naming the field (as `prefix` + field name)
// when a threshold is out of its range.
void check_link_thresholds(const LinkThresholds& t, const std::string& prefix = "");

struct LinkEvent {
  enum class Kind { PeerAppeared, PeerSilent, LossAbove, LossBelow, RateAbove, RateBelow };
  Kind kind = Kind::PeerAppeared;
  LinkSample link;  // the neighbour's figures when it happened (PeerSilent: the last ones)
};

const char* link_event_name(LinkEvent::Kind kind);

class LinkWatch {
 public:
  explicit LinkWatch(const LinkThresholds& thresholds) : thresholds_(thresholds) {}

  // The neighbours now (LinkQuality::samples): appends the events since the
  // last evaluation to `out`, in node order; silent ones first.
  void evaluate(const std::vector<LinkSample>& now, std::vector<LinkEvent>& out);
  const LinkThresholds& thresholds() const { return thresholds_; }
  std::size_t watched() const { return state_.size(); }

 private:
  struct State {
    LinkSample last;
    bool loss_above = false;
    bool rate_above = false;
  };
  void update(State& s, const LinkSample& sample, std::vector<LinkEvent>& out) const;

  LinkThresholds thresholds_;
  std::map<NodeId, State> state_;
};

}  // namespace dissem::engine
