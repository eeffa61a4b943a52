// dissem-sim run on a scenario of the scenario language (emulation/README.md):
// the same file the runner gives dissem-emu and EMANE, one system and one
// cell of it, in virtual time. The topology is the one expansion
// (scenario/expansion.h, links in the simulator's terms: sim/language_links.h);
// the workload is the system's dissemd and dissem-load commands
// (node_workload.h): each dissemd's engine configuration as dissemd builds
// it, subscriptions from `dissem-load receive` (group, --history,
// --unreliable) and publications from `dissem-load publish` (--messages and
// --interval-s, or a workload of streams), each at its role's start delay.
// The run lasts the scenario's time_limit_s and stops early once every
// subscriber has everything.
//
// What the simulator cannot honour is an error naming the file and key:
// besides the links' limits, a node start delay, a publication priority,
// lifetime or replacement, --offer-for-s.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/scenario_file.h"

namespace dissem::sim_scenario {

struct LanguageChoice {
  std::string system;              // "" when the scenario has one
  std::vector<std::string> cells;  // "key=value" (scenario/cell.h)
  std::uint64_t seed = 1;
};

// Whether `path` is written in the scenario language (it has [systems]),
// rather than in the simulator's older format (sim/scenario_file.h).
bool is_language_file(const std::filesystem::path& path);

sim::Scenario language_scenario(const std::filesystem::path& path, const LanguageChoice& choice);

}  // namespace dissem::sim_scenario
