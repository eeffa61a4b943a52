#include "controllers/forwarding/probabilistic_flooding.h"

#include <algorithm>

namespace dissem::controllers {

Micros forward_delay(Micros configured_max, const NodeView& node, Random& rng) {
  const Micros max = configured_max > 0 ? configured_max : std::max<Micros>(4 * node.packet_time(), 1 * kMillis);
  return rng.uniform_int(0, max);
}

ForwardDecision ProbabilisticFlooding::on_new_fragment(const ReceivedFragment& f, const NodeView& node, Micros,
                                                       Random& rng) {
  if (f.hops >= params_.hop_limit) return {};
  if (!decided_.first_time(f.meta.id, f.offset)) return {};
  if (!rng.chance(params_.probability)) return {};
  return {true, forward_delay(params_.delay_max, node, rng)};
}

}  // namespace dissem::controllers
