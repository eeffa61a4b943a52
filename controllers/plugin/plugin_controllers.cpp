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
  // A negative or absurd delay from a faulty plugin is clamped, not trusted.
  return {d.forward != 0, std::clamp<Micros>(d.delay_us, 0, 60 * kSeconds)};
}

bool PluginForwarding::relays(const std::string& group, const NodeView&) const {
  const auto relays = plugin_->table().relays;
  return relays != nullptr && relays(plugin_->get(), group.data(), group.size()) != 0;
}

PluginDeletion::PluginDeletion(std::shared_ptr<PluginInstance> plugin) : plugin_(std::move(plugin)) {
  if (plugin_->table().select_victims == nullptr)
    throw PluginError("controller plugin " + plugin_->path() +
                      ": deletion.name is \"plugin\" but it has no select_victims()");
}

std::vector<MessageId> PluginDeletion::select_victims(const std::vector<cache::MessageRecord>& messages,
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
  const std::size_t n = plugin_->table().select_victims(plugin_->get(), c.data(), c.size(), total_bytes, quota_bytes,
                                                        now, picked.data());
  std::vector<bool> chosen(messages.size(), false);
  std::vector<MessageId> victims;
  for (std::size_t i = 0; i < std::min(n, picked.size()); ++i) {
    const std::size_t k = picked[i];
    if (k < messages.size() && !chosen[k]) {  // out-of-range or repeated indices are ignored
      chosen[k] = true;
      victims.push_back(messages[k].meta.id);
    }
  }
  // Expiry is the publisher's, not the plugin's, to decide.
  for (std::size_t k = 0; k < messages.size(); ++k)
    if (!chosen[k] && messages[k].meta.expired_at(now)) victims.push_back(messages[k].meta.id);
  return victims;
}

}  // namespace dissem::controllers
