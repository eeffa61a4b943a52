#include "pgm_options.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <netinet/in.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

#include "apdu_header.h"
#include "common/group_options.h"
#include "common/message_spec.h"
#include "common/role_command_line.h"

namespace dissem::pgm_baseline {

using baseline::UsageError;

namespace {

// PGM refuses windows of half the sequence space or more; far below that,
// a window this large would hold gigabytes.
constexpr std::uint32_t kMaxWindowSqns = 1u << 22;
constexpr std::uint64_t kMaxTotalBytes = 1ull << 30;

void add_common(CLI::App& cmd, CommonOptions& c) {
  cmd.add_option("--node-id", c.node_id, "node id, only reported in the result (and mixed into the PGM GSI)")
      ->capture_default_str();
  cmd.add_option("--group", c.group, "IPv4 multicast group")->capture_default_str();
  cmd.add_option("--port", c.port, "UDP encapsulation port (data, SPMs and NAKs alike)")
      ->capture_default_str()
      ->check(CLI::Range(1, 65535));
  baseline::add_interface_option(cmd, c.interface);
  cmd.add_option("--ttl", c.ttl, "multicast hops (PGM_MULTICAST_HOPS)")->capture_default_str()->check(CLI::Range(1, 255));
  cmd.add_flag("--loopback", c.loopback, "several processes on one host: multicast loopback (PGM_MULTICAST_LOOP)");
  cmd.add_option("--payload", c.payload, "bytes per APDU, our 24-byte header included; one APDU per packet")
      ->capture_default_str()
      ->check(CLI::Range(64, 9000));
  baseline::add_time_limit_option(cmd, c.time_limit_s);
}

void validate_common(const CommonOptions& c) {
  if (!IN_MULTICAST(baseline::check_ipv4_group(c.group))) {
    throw UsageError("--group: '" + c.group + "' is not a multicast address (224.0.0.0/4)");
  }
  baseline::check_interface(c.interface, ";");  // ';' separates the parts of PGM's network string
}

void validate_sender(const CommonOptions& c, SenderOptions& s, const std::string& messages) {
  s.message_sizes =
      baseline::parse_messages_option(messages, kMaxTotalBytes, "all of it stays in PGM's transmit window");
  std::uint64_t apdus = apdu_count(s.message_sizes, c.payload);
  if (s.txw_sqns == 0) {
    if (apdus > kMaxWindowSqns) throw UsageError("--messages: " + std::to_string(apdus) + " APDUs exceed the largest window");
    s.txw_sqns = static_cast<std::uint32_t>(apdus);
  }
  // PGM asserts (aborts) when a rate limit is below one packet per second.
  RateLimits limits = rate_limits(c, s);
  if (limits.total > INT_MAX) throw UsageError("--rate: too high for PGM (its limits are int bytes per second)");
  if (std::min(limits.odata, limits.rdata) < max_tpdu(c)) {
    throw UsageError("--rate: with --odata-share " + fmt::format("{}", s.odata_share) +
                     " the original or repair share is below one " + std::to_string(max_tpdu(c)) +
                     "-byte packet per second");
  }
}

using PgmCommandLine = baseline::RoleCommandLine<Options>;

void add_sender_options(PgmCommandLine& cli) {
  CLI::App* sender = &cli.sender();
  auto& s = cli.options().sender;
  sender->add_option("--rate", s.rate_bps, "total rate limit in bit/s of UDP payload (link capacity)")
      ->required()
      ->check(CLI::Range(8.0, 1.6e10));
  sender->add_option("--odata-share", s.odata_share, "share of --rate for original data; the rest for repairs")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 0.99));
  cli.add_messages_option();
  sender->add_option("--interval", s.interval_s, "seconds between the starts of messages")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  sender->add_option("--start-delay", s.start_delay_s,
                     "seconds to wait (sending SPMs) before the first APDU: with --loopback, start the sender "
                     "first so that NAKs reach it (see README)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  sender->add_option("--linger", s.linger_s, "seconds to keep serving repairs after the last APDU")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  sender->add_option("--txw-sqns", s.txw_sqns, "transmit window in packets (default: every APDU stays repairable)")
      ->check(CLI::Range(1u, kMaxWindowSqns));
  sender->add_option("--ambient-spm", s.ambient_spm_ms, "milliseconds between ambient SPMs (after the heartbeats)")
      ->capture_default_str()
      ->check(CLI::Range(10, 600000));
  sender->add_flag("!--no-pacing", s.pacing,
                   "leave original data to PGM's token buckets alone (which allow a one-second burst below 11.6 Mbit/s)");
}

void add_receiver_options(PgmCommandLine& cli) {
  CLI::App* receiver = &cli.receiver();
  auto& r = cli.options().receiver;
  receiver->add_option("--expect", r.expect, "messages to receive")->required()->check(CLI::Range(1u, 1000000u));
  receiver->add_option("--linger", r.linger_s, "seconds to stay after completion")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  receiver->add_option("--rxw-sqns", r.rxw_sqns, "receive window in packets (PGM_RXW_SQNS)")
      ->capture_default_str()
      ->check(CLI::Range(16u, kMaxWindowSqns));
  receiver->add_option("--nak-bo-ivl", r.nak_bo_ivl_ms, "ms: NAK random back-off bound (PGM_NAK_BO_IVL)")
      ->capture_default_str()
      ->check(CLI::Range(2, 60000));
  receiver->add_option("--nak-rpt-ivl", r.nak_rpt_ivl_ms, "ms: wait for an NCF before repeating a NAK (PGM_NAK_RPT_IVL)")
      ->capture_default_str()
      ->check(CLI::Range(1, 600000));
  receiver->add_option("--nak-rdata-ivl", r.nak_rdata_ivl_ms, "ms: wait for repair data after an NCF (PGM_NAK_RDATA_IVL)")
      ->capture_default_str()
      ->check(CLI::Range(1, 600000));
  receiver->add_option("--nak-data-retries", r.nak_data_retries, "repair waits before giving up (PGM_NAK_DATA_RETRIES)")
      ->capture_default_str()
      ->check(CLI::Range(1, 255));
  receiver->add_option("--nak-ncf-retries", r.nak_ncf_retries, "NAK repeats without an NCF before giving up (PGM_NAK_NCF_RETRIES)")
      ->capture_default_str()
      ->check(CLI::Range(1, 255));
  receiver->add_option("--peer-expiry", r.peer_expiry_s, "s: forget a silent sender (PGM_PEER_EXPIRY; µs in an int, so at most 2000)")
      ->capture_default_str()
      ->check(CLI::Range(1, 2000));
  receiver->add_option("--spmr-expiry", r.spmr_expiry_ms, "ms: SPMR back-off for an unknown sender (PGM_SPMR_EXPIRY)")
      ->capture_default_str()
      ->check(CLI::Range(1, 60000));
  receiver->add_option("--rx-loss", r.rx_loss_percent,
                       "drop this percentage of arriving ODATA/RDATA in the kernel (a socket filter) before PGM "
                       "sees them: exercises NAK repairs where no link emulation is available")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
}

}  // namespace

RateLimits rate_limits(const CommonOptions& c, const SenderOptions& s) {
  double ip = s.rate_bps / 8.0 * max_tpdu(c) / (max_tpdu(c) - kIpUdpHeaders);
  RateLimits r;
  r.total = std::lround(ip);
  r.odata = std::lround(ip * s.odata_share);
  r.rdata = std::lround(ip * (1.0 - s.odata_share));
  return r;
}

CommandLine parse_command_line(int argc, const char* const* argv) {
  PgmCommandLine cli(
      "dissem-pgm: OpenPGM baseline sender/receiver; prints one JSON result as the last stdout line", "dissem-pgm",
      "send messages as 1400-byte APDUs, then keep serving repairs", "receive messages until --expect are complete",
      add_common);
  add_sender_options(cli);
  add_receiver_options(cli);
  return cli.parse(argc, argv, validate_common, validate_sender);
}

}  // namespace dissem::pgm_baseline
