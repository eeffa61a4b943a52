#include "norm_options.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <set>
#include <stdexcept>

#include "common/group_options.h"
#include "common/message_spec.h"
#include "common/role_command_line.h"

namespace dissem::norm_baseline {

using baseline::UsageError;

namespace {

constexpr std::uint32_t kNodeIdMax = 0xFFFFFFFEu;  // 0 and 0xFFFFFFFF are NORM_NODE_NONE/ANY
constexpr std::uint32_t kTxCacheMax = 32767;       // NORM masks larger counts to 15 bits
constexpr std::uint64_t kMaxTotalBytes = 4ull << 30;

void add_common(CLI::App& cmd, CommonOptions& c) {
  cmd.add_option("--node-id", c.node_id, "NORM node id, unique in the session")
      ->required()
      ->check(CLI::Range(1u, kNodeIdMax));
  cmd.add_option("--group", c.group, "multicast group or broadcast address")->capture_default_str();
  cmd.add_option("--port", c.port, "session UDP port")->capture_default_str()->check(CLI::Range(1, 65535));
  baseline::add_interface_option(cmd, c.interface);
  cmd.add_option("--ttl", c.ttl, "multicast TTL (default: NORM's)")->check(CLI::Range(0, 255));
  cmd.add_flag("--loopback", c.loopback,
               "several processes on one host: multicast loopback and a shared (reused) receive port");
  cmd.add_option("--grtt", c.grtt, "initial GRTT estimate in seconds; NORM's repair timers scale with it")
      ->check(CLI::Range(1e-6, 10.0));
  baseline::add_time_limit_option(cmd, c.time_limit_s);
}

void validate_common(const CommonOptions& c) {
  baseline::check_ipv4_group(c.group);
  baseline::check_interface(c.interface);
}

void validate_sender(const CommonOptions& c, SenderOptions& s, const std::string& messages) {
  if (!c.grtt) {
    throw UsageError("--grtt: required for the sender (NORM starts at 0.25 s and lowers it slowly, "
                     "which makes every repair many times slower)");
  }
  s.message_sizes = baseline::parse_messages_option(messages, kMaxTotalBytes,
                                                    "every message stays in memory until NORM purges it");
  if (s.block + s.parity > 255) {
    throw UsageError("--block + --parity: at most 255 segments per coded block (8-bit Reed-Solomon)");
  }
  if (s.auto_parity > s.parity) throw UsageError("--auto-parity: cannot exceed --parity");
  std::set<std::uint32_t> seen;
  for (auto id : s.ackers) {
    if (id == c.node_id) throw UsageError("--ackers: contains the sender's own --node-id " + std::to_string(id));
    if (!seen.insert(id).second) throw UsageError("--ackers: " + std::to_string(id) + " is listed twice");
  }
  if (s.tx_cache == 0) s.tx_cache = static_cast<std::uint32_t>(s.message_sizes.size());
  if (s.tx_cache > kTxCacheMax) throw UsageError("--tx-cache: at most " + std::to_string(kTxCacheMax));
}

using NormCommandLine = baseline::RoleCommandLine<Options>;

void add_sender_options(NormCommandLine& cli) {
  CLI::App* sender = &cli.sender();
  auto& s = cli.options().sender;
  sender->add_option("--rate", s.rate_bps, "NormSetTxRate in bit/s (UDP payload only)")
      ->required()
      ->check(CLI::Range(8.0, 1e11));
  sender->add_option("--segment", s.segment, "segment (payload) bytes per packet")
      ->capture_default_str()
      ->check(CLI::Range(64, 65000));
  sender->add_option("--block", s.block, "source segments per FEC block")->capture_default_str()->check(CLI::Range(1, 254));
  sender->add_option("--parity", s.parity, "parity segments computed per block")->capture_default_str()->check(CLI::Range(0, 254));
  sender->add_option("--auto-parity", s.auto_parity, "proactive parity segments per block (0: reactive only)")
      ->capture_default_str()
      ->check(CLI::Range(0, 254));
  cli.add_messages_option();
  sender->add_option("--interval", s.interval_s, "seconds between enqueues")->capture_default_str()->check(CLI::Range(0.0, 86400.0));
  sender->add_option("--ackers", s.ackers, "node ids that must positively acknowledge (comma list)")
      ->delimiter(',')
      ->check(CLI::Range(1u, kNodeIdMax));
  sender->add_option("--tx-cache", s.tx_cache, "objects kept for repair (default: all messages)")
      ->check(CLI::Range(1u, kTxCacheMax));
  sender->add_option("--linger", s.linger_s, "seconds to keep serving repairs after completion")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  sender->add_option("--ack-retries", s.ack_retries, "watermark re-polls after an acknowledgement failure")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
}

void add_receiver_options(NormCommandLine& cli) {
  CLI::App* receiver = &cli.receiver();
  auto& r = cli.options().receiver;
  receiver->add_option("--expect", r.expect, "objects to receive")->required()->check(CLI::Range(1u, 1000000u));
  receiver->add_flag("--silent", r.silent, "never NACK (and so never ACK either)");
  receiver->add_option("--linger", r.linger_s, "seconds to stay after completion to answer ACK requests")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  receiver->add_option("--rx-buffer", r.rx_buffer, "NormStartReceiver buffer bytes per sender")
      ->capture_default_str()
      ->check(CLI::Range(1u << 16, 1u << 31));
  receiver->add_option("--rx-loss", r.rx_loss_percent,
                       "drop this percentage of received packets inside NORM (NormSetRxLoss): "
                       "exercises repairs where no link emulation is available")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  receiver->add_option("--save-dir", r.save_dir,
                       "write every object that is not dissem-norm's (another NORM application's, a "
                       "gateway's) to DIR/<n>.data and its info to DIR/<n>.info")
      ->type_name("DIR");
}

}  // namespace

CommandLine parse_command_line(int argc, const char* const* argv) {
  NormCommandLine cli(
      "dissem-norm: NRL NORM baseline sender/receiver; prints one JSON result as the last stdout line", "dissem-norm",
      "enqueue messages as NORM_OBJECT_DATA and wait for completion", "receive objects until --expect are complete",
      add_common);
  add_sender_options(cli);
  add_receiver_options(cli);
  return cli.parse(argc, argv, validate_common, validate_sender);
}

}  // namespace dissem::norm_baseline
