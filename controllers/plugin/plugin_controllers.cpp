#include "controllers/plugin/plugin_controllers.h"

#include <algorithm>

namespace dissem::controllers {
namespace {

// The plugin interface counts expiry in whole seconds (its ABI predates
// millisecond expiry): rounded up, so a plugin never sees a live message as
// expired.
std::uint32_t seconds_rounded_up(std::uint64_t expiry_ms) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>((expiry_ms + 999) / 1000, UINT32_MAX));
}

// A delay a faulty plugin might make negative or absurd is clamped, not
// trusted: up to a minute for a rebroadcast, an hour (the longest
// replication.min_interval_ms) for a summary.
constexpr Micros kMaxForwardDelay = 60 * kSeconds;
constexpr Micros kMaxSummaryDelay = 3600 * kSeconds;
Micros sane_delay(std::int64_t delay_us, Micros max) { return std::clamp<Micros>(delay_us, 0, max); }

// The indices a plugin wrote (`written` of them), in its order, less any out
// of range or repeated: a faulty plugin cannot make the engine misbehave.
std::vector<std::size_t> valid_indices(const std::vector<std::size_t>& picked, std::size_t written) {
  std::vector<bool> seen(picked.size(), false);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < std::min(written, picked.size()); ++i) {
    const std::size_t k = picked[i];
    if (k < picked.size() && !seen[k]) {
      seen[k] = true;
      out.push_back(k);
    }
  }
  return out;
}

dissem_node_info node_info(const NodeView& node) { return {node.self(), node.packet_time(), node.serve_delay_max()}; }

}  // namespace

PluginForwarding::PluginForwarding(std::shared_ptr<PluginInstance> plugin) : plugin_(std::move(plugin)) {
  if (plugin_->table().forward == nullptr)
    throw PluginError("controller plugin " + plugin_->path() + ": forwarding.name is \"plugin\" but it has no forward()");
}

ForwardDecision PluginForwarding::on_new_fragment(const ReceivedFragment& f, const NodeView&, Micros now,
                                                  Random& rng) {
  dissem_fragment c{};
  c.group = f.meta.id.group.data();
  c.group_len = f.meta.id.group.size();
  c.publisher = f.meta.id.publisher;
  c.seq = f.meta.id.seq;
  c.offset = f.offset;
  c.length = f.length;
  c.total_length = f.meta.total_length;
  c.priority = f.meta.priority;
  c.expiry_s = seconds_rounded_up(f.meta.expiry_ms);
  c.hops = f.hops;
  c.transmitter = f.transmitter;
  c.locally_subscribed = f.locally_subscribed ? 1 : 0;
  c.repair = f.repair ? 1 : 0;
  dissem_forward_decision d{};
  plugin_->table().forward(plugin_->get(), &c, now, rng.next(), &d);
  return {d.forward != 0, sane_delay(d.delay_us, kMaxForwardDelay)};
}

bool PluginForwarding::relays(const std::string& group, const NodeView&) const {
  const auto relays = plugin_->table().relays;
  return relays != nullptr && relays(plugin_->get(), group.data(), group.size()) != 0;
}

PluginReplication::PluginReplication(std::shared_ptr<PluginInstance> plugin, double budget_fraction)
    : plugin_(std::move(plugin)) {
  const auto& t = plugin_->table();
  if (t.on_contact == nullptr || t.on_summary == nullptr)
    throw PluginError("controller plugin " + plugin_->path() +
                      ": replication.name is \"plugin\" but it has no on_contact() and on_summary()");
  policy_.budget_fraction = budget_fraction;
  policy_.learn_from_summaries = 1;
  if (t.replication_policy != nullptr) t.replication_policy(plugin_->get(), &policy_);
  if (!(policy_.budget_fraction >= 0.001 && policy_.budget_fraction <= 1.0))
    throw PluginError("controller plugin " + plugin_->path() + ": replication_policy() set budget_fraction " +
                      std::to_string(policy_.budget_fraction) + ", outside 0.001 .. 1");
}

std::optional<Micros> PluginReplication::on_contact(NodeId peer, const NodeView& node, Micros now, Random& rng) {
  const dissem_node_info info = node_info(node);
  std::int64_t delay = 0;
  if (plugin_->table().on_contact(plugin_->get(), peer, &info, now, rng.next(), &delay) == 0) return std::nullopt;
  return sane_delay(delay, kMaxSummaryDelay);
}

void PluginReplication::on_peer_silent(NodeId peer) {
  if (const auto f = plugin_->table().on_peer_silent) f(plugin_->get(), peer);
}

void PluginReplication::on_summary_sent(Micros now) {
  if (const auto f = plugin_->table().on_summary_sent) f(plugin_->get(), now);
}

SummaryResponse PluginReplication::on_summary(const PeerSummary& s, const std::vector<HeldMessage>& held,
                                              const NodeView& node, Micros now, Random& rng) {
  std::vector<dissem_group_name> wants;
  for (const auto& g : s.wants) wants.push_back({g.data(), g.size()});
  std::vector<std::vector<dissem_seq_range>> ranges;
  std::vector<dissem_held_stream> streams;
  for (const auto& st : s.streams) {
    auto& r = ranges.emplace_back();
    for (const auto& h : st.held) r.push_back({h.begin, h.end});
    streams.push_back({st.stream.group.data(), st.stream.group.size(), st.stream.publisher, r.data(), r.size()});
  }
  const dissem_peer_summary summary{s.peer,       s.reply ? 1 : 0, s.truncated ? 1 : 0, wants.data(),
                                    wants.size(), streams.data(),  streams.size()};
  std::vector<dissem_held_message> c;
  for (const auto& m : held)
    c.push_back({m.id.group.data(), m.id.group.size(), m.id.publisher, m.id.seq, m.bytes, m.priority});
  const dissem_node_info info = node_info(node);
  dissem_summary_reply reply{};
  std::vector<std::size_t> picked(held.size());
  // Never a null array, even with nothing held: a plugin may hand it to
  // qsort() or memcpy(), which must not see null even for zero elements.
  std::size_t no_pushes = 0;
  const std::size_t n = plugin_->table().on_summary(plugin_->get(), &summary, c.data(), c.size(), &info, now,
                                                    rng.next(), &reply, picked.empty() ? &no_pushes : picked.data());
  SummaryResponse r;
  if (reply.reply != 0) r.reply_delay = sane_delay(reply.delay_us, kMaxSummaryDelay);
  for (const std::size_t k : valid_indices(picked, n)) r.pushes.push_back(held[k].id);
  return r;
}

PluginDeletion::PluginDeletion(std::shared_ptr<PluginInstance> plugin) : plugin_(std::move(plugin)) {
  if (plugin_->table().select_victims == nullptr)
    throw PluginError("controller plugin " + plugin_->path() +
                      ": deletion.name is \"plugin\" but it has no select_victims()");
}

std::vector<MessageId> PluginDeletion::select_victims(const std::vector<MessageRecord>& messages,
                                                      std::uint64_t total_bytes, std::uint64_t quota_bytes,
                                                      Micros now) {
  std::vector<dissem_cached_message> c(messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto& m = messages[i];
    c[i].group = m.meta.id.group.data();
    c[i].group_len = m.meta.id.group.size();
    c[i].publisher = m.meta.id.publisher;
    c[i].seq = m.meta.id.seq;
    c[i].priority = m.meta.priority;
    c[i].expiry_s = seconds_rounded_up(m.meta.expiry_ms);
    c[i].stored_bytes = m.stored_bytes;
    c[i].first_seen_us = m.first_seen;
    c[i].last_used_us = m.last_used;
    c[i].complete = m.complete ? 1 : 0;
    c[i].own = m.own ? 1 : 0;
  }
  std::vector<std::size_t> picked(messages.size());
  std::size_t no_victims = 0;  // never a null array (see on_summary)
  const std::size_t n = plugin_->table().select_victims(plugin_->get(), c.data(), c.size(), total_bytes, quota_bytes,
                                                        now, picked.empty() ? &no_victims : picked.data());
  std::vector<bool> chosen(messages.size(), false);
  std::vector<MessageId> victims;
  for (const std::size_t k : valid_indices(picked, n)) {
    chosen[k] = true;
    victims.push_back(messages[k].meta.id);
  }
  // Expiry is the publisher's, not the plugin's, to decide.
  for (std::size_t k = 0; k < messages.size(); ++k)
    if (!chosen[k] && messages[k].meta.expired_at(now)) victims.push_back(messages[k].meta.id);
  return victims;
}

}  // namespace dissem::controllers
