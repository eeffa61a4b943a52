#include "engine/beacons.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "engine/link_timers.h"
#include "wire/codec.h"
#include "wire/control_entry_sizes.h"

namespace dissem::engine {

void Beacons::start(Micros now) { next_ = now + ctx_.rng.uniform_int(0, ctx_.config.beacon_interval / 4); }

void Beacons::hasten(Micros now) {
  next_ = std::min(next_, std::max(now, last_at_ + ctx_.config.beacon_interval / 4));
}

void Beacons::greet(Micros now) {
  const EngineConfig& config = ctx_.config;
  if (!slow_link(config) || last_at_ == 0) return;  // ours come within seconds, or the first is still due
  const Micros soon = now + ctx_.rng.uniform_int(0, config.beacon_interval / 4);
  next_ = std::min(next_, std::max(soon, last_at_ + config.beacon_interval));
}

bool Beacons::hold(Micros now, bool first_pass_waiting) {
  const EngineConfig& config = ctx_.config;
  const Micros longest = beacon_interval_max(config);
  // Our data on the air says we are alive and what we publish: on a slow
  // link, hold the beacon while our first pass goes (for at most the longest period).
  if (!(slow_link(config) && first_pass_waiting && now - last_at_ < longest)) return false;
  next_ = std::min(now + config.beacon_interval, last_at_ + longest);
  return true;
}

void Beacons::sent(Micros now, std::size_t bytes, std::size_t content) {
  const EngineConfig& config = ctx_.config;
  const Micros longest = beacon_interval_max(config);
  last_at_ = now;
  quiet_ = slow_link(config) && content == last_content_ ? std::min<std::uint32_t>(quiet_ + 1, 4) : 0;
  last_content_ = content;
  // Never more than its part of half the control share, whatever its size:
  // every node it hears may be beaconing on the same channel.
  const auto nodes = static_cast<Micros>(1 + src_.peers.established_count());
  const Micros share = control_spacing(config, bytes) * nodes;
  const Micros period = std::min(std::max(config.beacon_interval, share) << quiet_, std::max(longest, share));
  // +-10 % jitter keeps beacons of different nodes from synchronising.
  const Micros j = period / 10;
  next_ = now + period + ctx_.rng.uniform_int(-j, j);
}

namespace {

// Every stream's newest number worth advertising (ours: only what our first
// pass has sent), by stream.
std::vector<std::pair<StreamId, std::uint64_t>> newest_known(const NodeContext& ctx, const OwnPublications& own) {
  std::vector<std::pair<StreamId, std::uint64_t>> known;
  for (const auto& [stream, st] : ctx.tracker.streams()) {
    std::uint64_t newest = st.newest;
    if (stream.publisher == ctx.config.node_id) {
      auto it = own.sent_seq.find(stream.group);
      newest = it == own.sent_seq.end() ? 0 : it->second;
    }
    if (newest > 0) known.emplace_back(stream, newest);
  }
  std::sort(known.begin(), known.end());
  return known;
}

// A hash of what a beacon says, without what changes every time.
std::size_t content_hash(wire::Beacon b) {
  b.clear_sent_us();
  b.clear_seq();
  b.clear_echoes();
  for (auto& e : *b.mutable_newest()) {
    e.clear_seq();
    e.clear_oldest();
  }
  for (auto& r : *b.mutable_reception()) r.set_loss_permille(r.loss_permille() / 50);
  return std::hash<std::string>{}(b.SerializeAsString());
}

}  // namespace

// Echoes of the peers' latest beacons, for a few peers a beacon (at most
// kEchoesPerBeacon, and half the beacon), taking turns: each echo still
// answers the peer's latest beacon, so round trips and link reports stay
// current, only less often in a crowd.
void Beacons::add_echoes(wire::Beacon& b, std::size_t limit, Micros now) {
  const bool counts = src_.forwarding->needs_neighbour_counts();
  std::vector<NodeId> heard;
  for (const auto& [id, p] : src_.peers.all())
    if (p.beacon_heard_at != 0) heard.push_back(id);
  if (heard.empty()) return;
  const auto first = std::lower_bound(heard.begin(), heard.end(), echo_from_);
  std::rotate(heard.begin(), first, heard.end());
  wire::FrameBudget echo_budget(std::min(limit / 2, wire::kBeaconEchoBase + kEchoesPerBeacon * wire::kBeaconEchoEstimate),
                                wire::kBeaconEchoBase);
  for (const NodeId id : heard) {
    echo_from_ = id;
    if (!echo_budget.take(wire::kBeaconEchoEstimate)) return;
    const Peer& p = src_.peers.all().at(id);
    auto* e = b.add_echoes();
    e->set_peer(id);
    e->set_peer_sent_us(p.beacon_sent_us);
    e->set_held_us(static_cast<std::uint32_t>(std::min<Micros>(now - p.beacon_heard_at, 0xffffffff)));
    if (auto loss = src_.links.loss_permille_for_echo(id, src_.reception, now)) e->set_loss_permille(*loss);
    if (ctx_.config.rate_adaptation)
      if (auto rate = src_.links.recent_rate_for_echo(id, now)) e->set_received_bytes_per_s(*rate);
    if (counts)
      if (const std::uint32_t c = src_.two_hop.announced(id); c != 0) e->set_neighbours(c);
  }
  echo_from_ = heard.front();  // all fitted: the next starts where this one did
}

// Newest sequence per stream, in a rotating window when they do not all fit:
// it starts where the last one stopped (the rotation advances by the
// entries sent, so every stream gets its turn). With anti-entropy, each
// entry also says from where on we hold the stream.
void Beacons::add_newest(wire::Beacon& b, wire::FrameBudget& budget) {
  const auto known = newest_known(ctx_, src_.own);
  std::map<StreamId, std::uint64_t> oldest;
  if (src_.replication->learn_from_summaries()) {
    ctx_.tracker.for_each_complete([&](const MessageMeta& m) {
      auto [it, fresh] = oldest.try_emplace(stream_of(m.id), m.id.seq);
      if (!fresh) it->second = std::min(it->second, m.id.seq);
    });
  }
  const std::size_t start = rotation_;
  for (std::size_t i = 0; i < known.size(); ++i) {
    const auto& [stream, newest] = known[(start + i) % known.size()];
    const auto from = oldest.find(stream);
    const std::uint64_t held_from = from != oldest.end() && from->second <= newest ? from->second : 0;
    const std::uint32_t ref = src_.naming.ref_of(stream.publisher, stream.group);
    const std::uint64_t ended_below = stream.publisher == ctx_.config.node_id
                                          ? src_.ended.own_watermark(stream.group, *ctx_.store)
                                          : src_.ended.learnt(stream);
    if (!budget.take(wire::beacon_newest_size(stream.group, newest, held_from, ref, ended_below))) break;
    auto* e = b.add_newest();
    e->set_group(stream.group);
    e->set_publisher(stream.publisher);
    e->set_seq(newest);
    e->set_group_ref(ref);
    e->set_ended_below(ended_below);
    if (held_from != 0) e->set_oldest(held_from);
    ++rotation_;
  }
}

// Reception reports: the loss we measure on each publisher's first pass,
// worst first, as many as fit.
void Beacons::add_reception(wire::Beacon& b, wire::FrameBudget& budget) const {
  std::vector<std::pair<double, NodeId>> losses;
  for (const auto& [publisher, counts] : src_.reception.publishers())
    if (auto loss = src_.reception.loss(publisher); loss && publisher != ctx_.config.node_id)
      losses.emplace_back(*loss, publisher);
  std::sort(losses.rbegin(), losses.rend());
  for (const auto& [loss, publisher] : losses) {
    if (!budget.take(wire::beacon_reception_size())) break;
    auto* r = b.add_reception();
    r->set_publisher(publisher);
    r->set_loss_permille(static_cast<std::uint32_t>(std::lround(loss * 1000.0)));
  }
}

// Interest, for subscription-aware forwarding, ordered by group: all of it
// fits in practice; what does not is simply not advertised this time.
// What it says is kept: the relays it names are watched (relay_watch.h).
void Beacons::add_interests(wire::Beacon& b, wire::FrameBudget& budget, Micros now) {
  named_relays_.clear();
  const std::uint32_t radius = src_.forwarding->interest_radius();
  if (radius == 0) return;
  const auto avoid = src_.forwarding->names_relays() ? src_.relay_watch.avoided(now) : std::set<NodeId>{};
  for (auto& i : src_.interests.advertise(ctx_.config.node_id, src_.subscriptions.groups_aloud(), radius, avoid)) {
    if (!budget.take(wire::beacon_interest_size(i.group, i.distance, i.via != 0))) break;
    auto* w = b.add_interests();
    w->set_group(i.group);
    w->set_distance(i.distance);
    w->set_via(i.via);
    w->set_subscriber(i.subscriber);
    if (i.via != 0) named_relays_.push_back(std::move(i));
  }
}

Beacons::Built Beacons::build(Micros now) {
  wire::Beacon b;
  b.set_node(ctx_.config.node_id);
  // Unix time, for the neighbours' clock offsets; our own echoes come back
  // to `now`'s terms (handle_beacon).
  b.set_sent_us(static_cast<std::uint64_t>(ctx_.wall(now)));
  b.set_seq(++sent_);
  if (src_.forwarding->needs_neighbour_counts())
    b.set_neighbours(static_cast<std::uint32_t>(src_.peers.established_count()));
  const std::size_t limit = beacon_max_bytes(ctx_.config);
  add_echoes(b, limit, now);
  wire::FrameBudget budget(limit, wire::encoded_size(b));
  add_newest(b, budget);
  add_reception(b, budget);
  add_interests(b, budget, now);
  if (src_.radio_model.seen(now)) b.set_separate_radios(true);
  Built built;
  built.bytes = wire::encode(b);
  built.content = content_hash(std::move(b));
  return built;
}

}  // namespace dissem::engine
