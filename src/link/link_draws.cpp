#include "link/link_draws.h"

#include <stdexcept>

namespace dissem::link {

bool survives(Random& rng, const LinkSpec& spec, GilbertElliott* chain) {
  if (!spec.enabled) return false;
  double pass = spec.reliability;
  if (spec.burst) {
    if (chain == nullptr) throw std::logic_error("a link with burst loss needs its Gilbert-Elliott chain");
    pass = chain->step(rng, *spec.burst, pass);
  }
  return rng.chance(pass);
}

Time delay(Random& rng, const LinkSpec& spec) {
  return spec.jitter > 0 ? spec.latency + rng.uniform_int(0, spec.jitter) : spec.latency;
}

bool duplicated(Random& rng, const LinkSpec& spec) { return spec.duplicate > 0 && rng.chance(spec.duplicate); }

}  // namespace dissem::link
