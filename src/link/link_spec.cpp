#include "link/link_spec.h"

#include <stdexcept>

namespace dissem::link {

void LinkSpec::check() const {
  if (!(reliability >= 0.0 && reliability <= 1.0)) throw std::invalid_argument("link reliability must be in [0, 1]");
  if (latency < 0 || jitter < 0) throw std::invalid_argument("link latency and jitter must be >= 0");
  if (!(duplicate >= 0.0 && duplicate <= 1.0)) throw std::invalid_argument("link duplicate must be in [0, 1]");
  if (burst) burst->check();
}

}  // namespace dissem::link
