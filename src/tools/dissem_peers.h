// `dissem peers`: the neighbours' links as a table or JSON, and link event
// lines (shared by the one-shot report and --watch).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "ipc/backend.h"
#include "tools/dissem_commands.h"

namespace dissem::cli {

std::string peers_table(const std::vector<ipc::PeerInfo>& peers);
// "2.0%", or "-" while a direction's loss is not measured yet.
std::string loss_percent(const std::optional<double>& loss);
Json peers_json(const std::vector<ipc::PeerInfo>& peers);
// "peer_silent 0000abcd: loss in 2.0%, out -, recv 1.2 KB/s" (no newline).
std::string link_event_line(const ipc::LinkEventInfo& e);
// Runs `dissem peers --watch` until a signal or o.duration_s.
void watch_peers(const std::string& socket, const PeersOptions& o);

}  // namespace dissem::cli
