// The command line (the contract with the Python runner; options may be
// added, never changed):
//   dissem-emu --prefix NAME --nodes N [--subnet 10.77.0.0/24] [--eel FILE] [--seed S]
//              [--queue-packets 50] [--radio-bps BPS] [--radio-bps-node I=BPS]...
//              [--shared-channel-bps BPS] [--gilbert PGB,PBG,LOSSBAD] [--gilbert-link S:R=PGB,PBG,LOSSBAD]...
//              [--half-duplex-bps BPS [--turnaround-ms MS] [--max-hold-ms MS]] [--default-disconnected]
//              [--pcap-dir DIR] [--stats-json FILE] [--duration SECONDS] [--overhead-bytes B]
//              [--rt-priority P] [--interface NAME] [--join I=NAMESPACE]...
//   dissem-emu --cleanup NAME
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ipv4_subnet.h"
#include "link_model.h"

namespace dissem::emu {

// Longest prefix: the staging TAP name <prefix>-t<id> must fit 15 characters.
inline constexpr std::size_t kMaxPrefixLength = 10;
// A --join namespace: a file name under /run/netns (core/plain_name.h's characters).
inline constexpr std::size_t kMaxNamespaceName = 255;
// Node ids are the last MAC byte, and 255 is kept off the table.
inline constexpr std::size_t kMaxNodes = 254;

struct EmuOptions {
  std::optional<std::string> cleanup;  // --cleanup NAME: nothing else is set

  std::string prefix;
  std::size_t nodes = 0;
  Ipv4Subnet subnet;
  std::optional<std::string> eel_path;
  std::uint64_t seed = 1;
  std::size_t queue_packets = 50;
  std::vector<std::uint64_t> radio_bps;  // per node (index id-1), after --radio-bps and --radio-bps-node
  std::uint64_t shared_channel_bps = 0;
  std::optional<GilbertParams> gilbert;
  std::vector<LinkGilbert> link_gilbert;  // --gilbert-link, one per ordered link
  HalfDuplexParams half_duplex;
  bool default_disconnected = false;
  std::optional<std::string> pcap_dir;
  bool ipv6 = false;  // link-local IPv6 on each node's interface (NetworkPlan::ipv6)
  // The TAP's name inside each node's namespace (--interface, default emu0).
  std::string interface_name = "emu0";
  // --join I=NAMESPACE: node I is an existing namespace (a node of another
  // emulation: a second network of the same host), not one of ours.
  std::map<std::size_t, std::string> joins;
  std::optional<std::string> stats_json;
  std::optional<double> duration_s;
  std::uint32_t overhead_bytes = 0;
  int rt_priority = 10;  // SCHED_FIFO priority of the forwarding loop; 0 = ordinary scheduling

  ModelConfig model_config() const;
};

// A bad command line; the message names the option.
class OptionsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// --help (or --version): print `text` and exit 0.
struct HelpRequested {
  std::string text;
};

// Throws OptionsError or HelpRequested.
EmuOptions parse_emu_options(int argc, const char* const* argv);
EmuOptions parse_emu_options(const std::vector<std::string>& args);  // args without the program name

// [a-z0-9][a-z0-9-]*, at most kMaxPrefixLength characters.
bool is_valid_prefix(std::string_view prefix);

}  // namespace dissem::emu
