// The `dissem` subcommands. Each takes its parsed options, talks to the
// daemon at `socket` and returns normally on success; failures throw
// cli::Failure (see dissem_common.h) or the client library's exceptions,
// which main() maps to exit codes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "ipc/backend.h"

namespace dissem::cli {

struct PublishOptions {
  std::string group;
  std::string file = "-";  // "-" reads stdin
  std::uint32_t priority = 0;
  std::uint32_t lifetime_ms = 0;  // expires this long after publication; 0 = never
  std::uint32_t history = 0;
  std::string tag;
  bool replace = false;  // supersede our older messages of the group with the same tag
  bool progress = false;
};

struct CancelOptions {
  std::string group;
  std::vector<std::uint64_t> seqs;
  std::string tag;
};

struct SubscribeOptions {
  std::string group;
  bool unreliable = false;
  bool ordered = false;
  std::uint32_t history = 0;
  std::uint32_t min_priority = 0;
  std::vector<std::string> tags;  // deliver only these tags (empty: all)
  std::string name;               // durable: resumed under this name, each delivery acknowledged once written
  bool silent = false;            // EMCON for this group: the subscription makes the node send nothing
  std::uint64_t count = 0;  // 0 = until the timeout (or forever)
  double timeout_s = 0;     // 0 = no timeout
  std::string out_dir;      // one file per message
  std::string out_file;     // all payloads appended to one file
  bool progress = false;
  bool quiet = false;
};

void run_publish(const std::string& socket, const PublishOptions& o);
void run_subscribe(const std::string& socket, const SubscribeOptions& o);
void run_cancel(const std::string& socket, const CancelOptions& o);

struct GetOptions {
  std::string group;
  std::uint32_t publisher = 0;
  std::uint64_t seq = 0;
  std::string out_file;  // empty: stdout
};

struct ListOptions {
  std::string group;
  std::uint32_t publisher = 0;
  std::uint64_t from_seq = 0;
  std::uint64_t to_seq = 0;
  std::size_t limit = 1000;
  bool json = false;
};

void run_get(const std::string& socket, const GetOptions& o);
void run_unsubscribe(const std::string& socket, const std::string& name);
void run_list(const std::string& socket, const ListOptions& o);
void run_stats(const std::string& socket, bool json);
// Radio silence (EMCON) for the whole node: "on" or "off".
void run_emcon(const std::string& socket, const std::string& state);
// Prints what the reload applied, what waits for a restart and the keys held.
void run_reload(const std::string& socket, bool json);
struct PeersOptions {
  bool json = false;
  // --watch: the table redrawn every interval_s (clear and redraw on a
  // terminal; tables one after another otherwise), link events printed as
  // they come, until Ctrl-C / SIGTERM or duration_s (0: no limit).
  bool watch = false;
  double interval_s = 1.0;
  double duration_s = 0;
  // Link event thresholds of this watch; unset: the daemon's engine.link_*.
  // Any one given fills the others from the engine's defaults.
  std::optional<double> loss_threshold;
  std::optional<double> loss_hysteresis;
  std::optional<double> rate_threshold;
  std::optional<double> rate_hysteresis;
};

void run_peers(const std::string& socket, const PeersOptions& o);

struct TopOptions {
  double interval_s = 1.0;  // between samples
};
// `dissem top`: a live terminal view until q or Ctrl-C (dissem_top.cpp).
void run_top(const std::string& socket, const TopOptions& o);

}  // namespace dissem::cli
