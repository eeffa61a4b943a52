#include "controllers/replication/anti_entropy.h"

#include <algorithm>
#include <set>

namespace dissem::controllers {
namespace {

bool held_in(const std::vector<SeqRange>& ranges, std::uint64_t seq) {
  const auto it = std::upper_bound(ranges.begin(), ranges.end(), seq,
                                   [](std::uint64_t s, const SeqRange& r) { return s < r.begin; });
  return it != ranges.begin() && seq < std::prev(it)->end;
}

}  // namespace

Micros AntiEntropy::summary_delay(const NodeView& node, Micros now, Random& rng) const {
  const Micros max = params_.summary_delay_max > 0 ? params_.summary_delay_max
                                                   : node.serve_delay_max() + 4 * node.packet_time();
  Micros delay = rng.uniform_int(0, std::max<Micros>(max, 1));
  // Not more often than the minimum interval, whatever the churn.
  if (last_sent_ >= 0) delay = std::max(delay, last_sent_ + params_.min_interval - now);
  return delay;
}

std::optional<Micros> AntiEntropy::on_contact(NodeId peer, const NodeView& node, Micros now, Random& rng) {
  contacts_[peer] = Contact{};
  return summary_delay(node, now, rng);
}

void AntiEntropy::on_summary_sent(Micros now) {
  last_sent_ = now;
  for (auto& [peer, c] : contacts_) c.summary_sent = true;
}

SummaryResponse AntiEntropy::on_summary(const PeerSummary& s, const std::vector<HeldMessage>& held,
                                        const NodeView& node, Micros, Random& rng) {
  SummaryResponse r;
  // One exchange per contact: answer a peer we met and have not told yet.
  // (A peer's summary prompted by some other contact of its own is not
  // answered: we are not new to it.)
  auto c = contacts_.find(s.peer);
  if (!s.reply && c != contacts_.end() && !c->second.summary_sent) {
    // The answer goes out soon but still after a random delay, so that two
    // nodes meeting the same peer do not answer in the same slot.
    r.reply_delay = rng.uniform_int(0, std::max<Micros>(4 * node.packet_time(), 1));
  }

  const std::set<std::string> wants(s.wants.begin(), s.wants.end());
  std::map<StreamId, const std::vector<SeqRange>*> theirs;
  for (const auto& st : s.streams) theirs.emplace(st.stream, &st.held);

  std::vector<const HeldMessage*> candidates;
  for (const auto& m : held) {
    if (!wants.contains(m.id.group)) continue;
    const auto it = theirs.find(stream_of(m.id));
    if (it == theirs.end()) {
      if (s.truncated) continue;  // unlisted: we cannot tell what it holds
    } else if (held_in(*it->second, m.id.seq)) {
      continue;
    }
    candidates.push_back(&m);
  }
  // Most important first; within a priority in stream order, so that ordered
  // subscribers behind the peer can deliver as the pushes arrive.
  std::stable_sort(candidates.begin(), candidates.end(), [](const HeldMessage* a, const HeldMessage* b) {
    if (a->priority != b->priority) return a->priority > b->priority;
    return a->id < b->id;
  });
  std::uint64_t bytes = 0;
  for (const HeldMessage* m : candidates) {
    if (bytes + m->bytes > params_.max_push_bytes) break;
    bytes += m->bytes;
    r.pushes.push_back(m->id);
  }
  return r;
}

}  // namespace dissem::controllers
