// What the emulator tells its caller: the ready line on stdout once the
// network is up, and the stats file at the end (schema in README.md).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "emu_options.h"
#include "emulated_network.h"
#include "link_model.h"

namespace dissem::emu {

// One line of JSON, no newline.
std::string ready_line(const EmuOptions& options, const std::vector<NodeInfo>& nodes);

struct RunSummary {
  TimeNs ran = 0;           // run time from the ready line to the stop
  TimeNs origin_unix = 0;   // the ready line (time 0 of the EEL) in Unix ns, as in pcap stamps
  std::string stopped_by;   // "duration", the signal's name, or "error"
  std::size_t eel_events = 0;           // commeffect entries in the EEL file
  std::size_t eel_events_at_start = 0;  // of which applied before the ready line (time 0)
  std::map<std::string, std::size_t> ignored_eel_events;
  std::string scheduling = "normal";    // what apply_scheduling obtained
};

std::string stats_json(const EmuOptions& options, const LinkModel& model, const RunSummary& run);

// Writes `path` through a temporary file and a rename, so a reader never sees
// half a file. Throws std::runtime_error naming the path.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace dissem::emu
