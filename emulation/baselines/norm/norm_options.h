// Command line of dissem-norm: `dissem-norm sender|receiver [options]`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/command_line.h"

namespace dissem::norm_baseline {

using baseline::Role;

struct CommonOptions {
  // Must differ between all processes of a session: a NORM receiver silently
  // discards packets carrying its own node id.
  std::uint32_t node_id = 0;
  std::string group = "224.1.2.3";  // multicast group, or a broadcast address
  std::uint16_t port = 6003;
  std::string interface;            // empty: the routing table decides
  std::optional<int> ttl;           // unset: NORM's default
  bool loopback = false;            // several processes on one host
  std::optional<double> grtt;       // initial GRTT estimate, seconds
  double time_limit_s = 60.0;
};

struct SenderOptions {
  double rate_bps = 0;              // NormSetTxRate: UDP payload bits per second
  std::uint16_t segment = 1400;     // payload bytes per NORM_DATA packet
  std::uint16_t block = 64;         // source segments per FEC block
  std::uint16_t parity = 32;        // parity segments computed per block
  std::uint16_t auto_parity = 0;    // proactive parity per block (0: on NACK only)
  std::vector<std::uint32_t> message_sizes;
  double interval_s = 0;            // between enqueues
  std::vector<std::uint32_t> ackers;
  std::uint32_t tx_cache = 0;       // objects kept for repair; 0: all messages
  double linger_s = 1.0;            // keep serving repairs after completion
  int ack_retries = 3;              // NormResetWatermark rounds after a failure
};

struct ReceiverOptions {
  std::uint32_t expect = 0;
  bool silent = false;
  double linger_s = 1.0;            // keep answering ACK requests after completion
  std::uint32_t rx_buffer = 16u << 20;
  double rx_loss_percent = 0;       // NORM's own test drop of received packets
  // Where objects that are not ours (no dissem-norm header: another NORM
  // application, a gateway) are written, as <n>.data and <n>.info; "" = nowhere.
  std::string save_dir;
};

struct Options {
  Role role = Role::Sender;
  CommonOptions common;
  SenderOptions sender;
  ReceiverOptions receiver;
};

// Options to run with, or the exit code to return at once (common/command_line.h).
using CommandLine = baseline::CommandLine<Options>;

CommandLine parse_command_line(int argc, const char* const* argv);

}  // namespace dissem::norm_baseline
