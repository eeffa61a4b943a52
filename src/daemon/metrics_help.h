// The HELP line of each metric the daemon exports (daemon/metrics_text.h),
// keyed by the counter's path in `dissem stats --json`, "*" standing for
// the label of a labelled family (traffic.*.sent.bytes, malformed.*).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dissem::daemon {

// nullopt for a path without help (a unit test holds every counter to one).
std::optional<std::string_view> metric_help(const std::string& path);

}  // namespace dissem::daemon
