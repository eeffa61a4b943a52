#include "engine/link_watch.h"

#include <set>
#include <sstream>

namespace dissem::engine {

void check_link_thresholds(const LinkThresholds& t, const std::string& prefix) {
  auto check = [&](const char* name, double v, double lo, double hi) {
    if (v >= lo && v <= hi) return;  // NaN fails both
    std::ostringstream os;
    os << "'" << prefix << name << "': " << v << " is out of range [" << lo << ", " << hi << "]";
    throw std::invalid_argument(os.str());
  };
  check("loss_threshold", t.loss, 0.0, 1.0);
  check("loss_hysteresis", t.loss_hysteresis, 0.0, 1.0);
  check("rate_threshold", t.rate_bytes_per_s, 0.0, 1e12);
  check("rate_hysteresis", t.rate_hysteresis, 0.0, 0.95);
}

const char* link_event_name(LinkEvent::Kind kind) {
  switch (kind) {
    case LinkEvent::Kind::PeerAppeared: return "peer_appeared";
    case LinkEvent::Kind::PeerSilent: return "peer_silent";
    case LinkEvent::Kind::LossAbove: return "loss_above";
    case LinkEvent::Kind::LossBelow: return "loss_below";
    case LinkEvent::Kind::RateAbove: return "rate_above";
    case LinkEvent::Kind::RateBelow: return "rate_below";
  }
  return "unknown";
}

void LinkWatch::update(State& s, const LinkSample& sample, std::vector<LinkEvent>& out) const {
  s.last = sample;
  const double loss = sample.worst_loss();
  if (!s.loss_above && loss > thresholds_.loss) {
    s.loss_above = true;
    out.push_back({LinkEvent::Kind::LossAbove, sample});
  } else if (s.loss_above && loss < thresholds_.loss - thresholds_.loss_hysteresis) {
    s.loss_above = false;
    out.push_back({LinkEvent::Kind::LossBelow, sample});
  }
  if (thresholds_.rate_bytes_per_s <= 0) return;
  const double rate = sample.received_bytes_per_s;
  if (!s.rate_above && rate > thresholds_.rate_bytes_per_s) {
    s.rate_above = true;
    out.push_back({LinkEvent::Kind::RateAbove, sample});
  } else if (s.rate_above && rate < thresholds_.rate_bytes_per_s * (1.0 - thresholds_.rate_hysteresis)) {
    s.rate_above = false;
    out.push_back({LinkEvent::Kind::RateBelow, sample});
  }
}

void LinkWatch::evaluate(const std::vector<LinkSample>& now, std::vector<LinkEvent>& out) {
  std::set<NodeId> present;
  for (const auto& s : now) present.insert(s.node);
  for (auto it = state_.begin(); it != state_.end();) {
    if (present.contains(it->first)) {
      ++it;
      continue;
    }
    out.push_back({LinkEvent::Kind::PeerSilent, it->second.last});
    it = state_.erase(it);
  }
  for (const auto& sample : now) {
    auto [it, fresh] = state_.try_emplace(sample.node);
    if (fresh) out.push_back({LinkEvent::Kind::PeerAppeared, sample});
    update(it->second, sample, out);
  }
}

}  // namespace dissem::engine
