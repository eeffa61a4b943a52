// dissemd's metrics in Prometheus' text exposition format (version 0.0.4,
// which OpenMetrics scrapers read too): every counter and gauge of `dissem
// stats --json` (ipc/stats_json.h, walked, so a counter added there is
// exported here), named dissem_<section>_<field>, counters with _total; the
// traffic, malformed and integrity sections as labelled families (kind,
// reason, event); each neighbour's link as dissem_peer_* gauges labelled
// peer="<node id in hex>"; and dissem_build_info{version}. Each family has
// its HELP (daemon/metrics_help.h) and TYPE lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ipc/backend.h"

namespace dissem::daemon {

std::string metrics_text(const ipc::StatsSnapshot& stats, const std::vector<ipc::PeerInfo>& peers);

// name="value" with the value escaped as the format wants (\\, \", \n).
std::string metric_label(std::string_view name, std::string_view value);

}  // namespace dissem::daemon
