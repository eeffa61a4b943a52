// Command line of dissem-pgm: `dissem-pgm sender|receiver [options]`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/command_line.h"

namespace dissem::pgm_baseline {

using baseline::Role;

struct CommonOptions {
  std::uint32_t node_id = 0;        // only reported (and mixed into the PGM GSI)
  std::string group = "239.192.0.1";
  std::uint16_t port = 7500;        // UDP encapsulation port (unicast and multicast), and PGM's data port
  std::string interface;            // empty: the routing table decides
  int ttl = 16;                     // PGM_MULTICAST_HOPS
  bool loopback = false;            // PGM_MULTICAST_LOOP: several processes on one host
  std::uint16_t payload = 1400;     // bytes per APDU (one APDU = one ODATA packet)
  double time_limit_s = 60.0;
};

struct SenderOptions {
  double rate_bps = 0;              // UDP payload bits per second, all PGM traffic
  double odata_share = 0.7;         // of the rate, for original data; the rest for repairs
  std::vector<std::uint32_t> message_sizes;
  double interval_s = 0;            // between messages
  double start_delay_s = 0;         // SPMs only, before the first APDU
  double linger_s = 30.0;           // keep serving repairs after the last APDU
  std::uint32_t txw_sqns = 0;       // 0: every APDU of every message stays repairable
  int ambient_spm_ms = 1000;
  bool pacing = true;               // our own smooth pacing under PGM's rate limits
};

struct ReceiverOptions {
  std::uint32_t expect = 0;
  double linger_s = 0;              // stay (and keep NAKing for others' repairs) after completion
  std::uint32_t rxw_sqns = 16384;
  int nak_bo_ivl_ms = 50;
  int nak_rpt_ivl_ms = 250;
  int nak_rdata_ivl_ms = 1000;
  int nak_data_retries = 255;
  int nak_ncf_retries = 255;
  int peer_expiry_s = 300;
  int spmr_expiry_ms = 250;
  double rx_loss_percent = 0;       // drop this share of arriving ODATA/RDATA in the kernel (test only)
};

struct Options {
  Role role = Role::Sender;
  CommonOptions common;
  SenderOptions sender;
  ReceiverOptions receiver;
};

// Wire overhead of one ODATA/RDATA packet that PGM counts against its rate
// limits: IPv4 (20) + UDP encapsulation (8) + PGM header (16) + data header (8).
inline constexpr int kPacketOverhead = 52;
// IPv4 + UDP: counted by PGM's rate limits but not part of the UDP payload.
inline constexpr int kIpUdpHeaders = 28;

// PGM_MTU ("max_tpdu"): the largest IP packet, so that one --payload APDU
// fits one TPDU without PGM's fragment option.
inline int max_tpdu(const CommonOptions& c) { return c.payload + kPacketOverhead; }

// PGM's rate limits in bytes per second of IP packets, derived from --rate
// (UDP payload bits per second) for full-size packets.
struct RateLimits {
  long total = 0;   // PGM_TXW_MAX_RTE
  long odata = 0;   // PGM_ODATA_MAX_RTE
  long rdata = 0;   // PGM_RDATA_MAX_RTE
};
RateLimits rate_limits(const CommonOptions& c, const SenderOptions& s);

// Options to run with, or the exit code to return at once (common/command_line.h).
using CommandLine = baseline::CommandLine<Options>;

CommandLine parse_command_line(int argc, const char* const* argv);

}  // namespace dissem::pgm_baseline
