// Window symbols received: checked (our own streams' are ignored), their
// stream learnt, then given to the window coder (window_coder.h); the small
// messages its equations recover are accepted as received ones.
#include "engine/node_impl.h"

namespace dissem::engine {
namespace {

TrafficKind kind_of(const wire::WindowSymbol& w) {
  if (w.repair()) return TrafficKind::Repair;
  return w.hops() > 0 ? TrafficKind::Forward : TrafficKind::Data;
}

}  // namespace

void NodeImpl::on_window_symbol(const wire::WindowSymbol& w, std::size_t size, Micros now) {
  stats.received[static_cast<std::size_t>(kind_of(w))].add(size);
  ++stats.coded_received;
  const StreamId stream{w.group(), w.publisher()};
  block_memory.record(window_key(stream), 0, now);
  if (!window_coder.enabled()) {
    ++stats.coded_ignored;
    return;
  }
  if (w.publisher() == config.node_id) return;
  const bool subscribed = subscribers.subscriptions().any(w.group());
  if (!subscribed && !config.cache_unsubscribed) return;
  learn_stream(stream, w.first_seq() + w.count() - 1, 0, true, now);
  accept_window_recovered(window_coder.add_symbol(w, now), now);
}

void NodeImpl::accept_window_recovered(const std::vector<WindowCoder::Recovered>& messages, Micros now) {
  for (const auto& m : messages) {
    ++stats.fragments_decoded;
    accept_fragment(m.meta, 0, m.payload, subscribers.subscriptions().any(m.meta.id.group),
                    ArrivedFrom{0, 0, true, true, 0}, now);
  }
}

}  // namespace dissem::engine
