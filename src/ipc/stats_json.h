// The daemon's counters as JSON: what `dissem stats --json` prints, what
// dissem-load records, and what dissemd's metrics endpoint exports
// (daemon/metrics_text.h walks it, so every counter here is a metric there).
// Sections in a fixed order; counts are integers.
#pragma once

#include "core/json.h"
#include "ipc/backend.h"

namespace dissem::ipc {

Json stats_json(const StatsSnapshot& snap);

}  // namespace dissem::ipc
