#include "daemon/node_clock.h"

namespace dissem::daemon {

Micros unix_now() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace dissem::daemon
