// Network namespaces named <prefix>-n<id>, made and removed with ip(8)
// (batched: one ip process for all nodes, not one per node and step).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "link_effects.h"

namespace dissem::emu {

// Where `ip netns add` keeps its namespaces (one file each).
inline constexpr const char* kNetnsDirectory = "/run/netns";

std::string namespace_name(std::string_view prefix, NodeId node);

// Existing namespaces named exactly <prefix>-n<digits>, in id order.
std::vector<std::string> namespaces_with_prefix(std::string_view prefix);

// Throws std::runtime_error quoting ip's complaint.
void create_namespaces(const std::vector<std::string>& names);

// Removes as many as it can (carrying on past failures); returns the
// names that are still there afterwards.
std::vector<std::string> delete_namespaces(const std::vector<std::string>& names);

// Moves root-namespace links into namespaces: {link, namespace} pairs.
void move_links_to_namespaces(const std::vector<std::pair<std::string, std::string>>& moves);

// Runs `ip -n <ns> -batch -` with one ip command per line (no "ip" word).
void ip_batch_in_namespace(const std::string& ns, const std::string& commands);

// Writes a /proc/sys value as seen from inside namespace `ns` (the thread
// enters it and comes back). A missing file is ignored and returns false
// (e.g. IPv6 compiled out: then there is nothing to disable).
bool write_sysctl_in_namespace(const std::string& ns, const std::string& proc_path, std::string_view value);

// Processes still inside `ns` (they keep it alive after it is removed).
std::vector<std::string> pids_in_namespace(const std::string& ns);

}  // namespace dissem::emu
