#include "emu_options.h"

#include <cmath>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "core/plain_name.h"
#include "core/version.h"
#include "config/setting_text.h"

namespace dissem::emu {
namespace {

std::uint64_t parse_bps(std::string_view option, std::string_view text) {
  if (const auto v = read_whole_number(text)) return *v;
  throw OptionsError(fmt::format("{}: '{}' is not a whole number of bits per second", option, text));
}

// A node id in 1..nodes, as the text of `entry` gives it; the refusal names `option`.
std::size_t node_id(std::string_view option, std::string_view id_text, std::string_view entry, std::size_t nodes) {
  const auto id = read_whole_number(id_text);
  if (!id || *id < 1 || *id > nodes)
    throw OptionsError(fmt::format("{}: node '{}' in '{}' is not in 1..{}", option, id_text, entry, nodes));
  return static_cast<std::size_t>(*id);
}

void check_prefix(std::string_view option, std::string_view prefix) {
  if (!is_valid_prefix(prefix))
    throw OptionsError(fmt::format(
        "{}: '{}' must be 1..{} characters of [a-z0-9-], starting with a letter or digit "
        "(namespace and interface names are built from it)",
        option, prefix, kMaxPrefixLength));
}

// "S:R=PGB,PBG,LOSSBAD": burst loss on the link S -> R.
LinkGilbert parse_link_gilbert(std::string_view text, std::size_t nodes) {
  const auto eq = text.find('=');
  const auto colon = text.substr(0, eq).find(':');
  if (eq == std::string_view::npos || colon == std::string_view::npos)
    throw OptionsError(fmt::format("--gilbert-link: '{}' is not S:R=PGB,PBG,LOSSBAD", text));
  LinkGilbert g;
  g.sender = node_id("--gilbert-link", text.substr(0, colon), text, nodes);
  g.receiver = node_id("--gilbert-link", text.substr(colon + 1, eq - colon - 1), text, nodes);
  if (g.sender == g.receiver)
    throw OptionsError(fmt::format("--gilbert-link: '{}' names a link from a node to itself", text));
  try {
    g.params = parse_gilbert(text.substr(eq + 1));
  } catch (const std::invalid_argument& e) {
    throw OptionsError(fmt::format("--gilbert-link: '{}': {}", text, e.what()));
  }
  return g;
}

TimeNs milliseconds_option(std::string_view option, double ms) {
  if (!std::isfinite(ms) || ms < 0 || ms > 1e9)
    throw OptionsError(fmt::format("{}: {} is not a number of milliseconds in 0..1e9", option, ms));
  return static_cast<TimeNs>(std::llround(ms * 1e6));
}

// The command line as CLI11 reads it, before it is checked.
struct RawOptions {
  std::string cleanup, prefix, subnet = "10.77.0.0/24", eel, gilbert, pcap_dir, stats_json, interface = "emu0";
  long long nodes = 0, queue_packets = 50, overhead_bytes = 0, rt_priority = 10;
  std::uint64_t seed = 1;
  std::string radio_bps, shared_channel_bps, half_duplex_bps;
  std::vector<std::string> radio_bps_node, gilbert_link, joins;
  double turnaround_ms = 0, max_hold_ms = 0, duration = 0;
  bool default_disconnected = false;
  bool ipv6 = false;
  // Options whose presence matters, not only their value.
  CLI::Option* cleanup_opt = nullptr;
  CLI::Option* prefix_opt = nullptr;
  CLI::Option* nodes_opt = nullptr;
  CLI::Option* turnaround_opt = nullptr;
  CLI::Option* max_hold_opt = nullptr;
  CLI::Option* duration_opt = nullptr;
};

void add_options(CLI::App& app, RawOptions& r) {
  r.cleanup_opt = app.add_option("--cleanup", r.cleanup, "Remove leftover namespaces NAME-n* and exit");
  r.prefix_opt = app.add_option("--prefix", r.prefix, "Name of this emulation: namespaces are <prefix>-n<i>");
  r.nodes_opt = app.add_option("--nodes", r.nodes, "Number of nodes (1..254)");
  app.add_option("--subnet", r.subnet, "IPv4 subnet; node i gets <network>+i")->capture_default_str();
  app.add_option("--eel", r.eel, "EMANE Event Log file with commeffect events");
  app.add_option("--seed", r.seed, "Seed of every random draw")->capture_default_str();
  app.add_option("--queue-packets", r.queue_packets, "Drop-tail limit of every queue, in waiting frames")
      ->capture_default_str();
  app.add_option("--radio-bps", r.radio_bps, "Serialise everything each node sends at BPS (0 = off)");
  app.add_option("--radio-bps-node", r.radio_bps_node, "I=BPS: radio rate of node I (repeatable)");
  app.add_option("--shared-channel-bps", r.shared_channel_bps, "All nodes share one channel of BPS (0 = off)");
  app.add_option("--gilbert", r.gilbert, "PGB,PBG,LOSSBAD: Gilbert-Elliott burst loss on every link (probabilities)");
  app.add_option("--gilbert-link", r.gilbert_link,
                 "S:R=PGB,PBG,LOSSBAD: burst loss on link S -> R in place of --gilbert (repeatable)");
  app.add_option("--half-duplex-bps", r.half_duplex_bps,
                 "All nodes share one half-duplex channel of BPS (an HF net): one transmitter at a time, "
                 "a node on the air hears nothing (0 = off)");
  r.turnaround_opt = app.add_option("--turnaround-ms", r.turnaround_ms,
                                    "Half-duplex: quiet time before another node may transmit")
                         ->capture_default_str();
  r.max_hold_opt = app.add_option("--max-hold-ms", r.max_hold_ms,
                                  "Half-duplex: longest turn while others wait (0 = no limit)")
                       ->capture_default_str();
  app.add_flag("--default-disconnected", r.default_disconnected, "Links not set by the EEL pass nothing");
  app.add_flag("--ipv6", r.ipv6, "IPv6 on: each node's emu0 also has a link-local address (off: IPv6 disabled)");
  app.add_option("--interface", r.interface, "Name of each node's TAP inside its namespace")->capture_default_str();
  app.add_option("--join", r.joins,
                 "I=NAMESPACE: node I is that existing namespace (a node of another emulation, for a host on "
                 "two networks); its TAP is added there and the namespace is never removed (repeatable)");
  app.add_option("--pcap-dir", r.pcap_dir, "Write n<i>.pcap per node (frames sent and received)");
  app.add_option("--stats-json", r.stats_json, "Write counters as JSON here at the end of the run");
  r.duration_opt = app.add_option("--duration", r.duration, "Stop after SECONDS (default: run until SIGTERM)");
  app.add_option("--overhead-bytes", r.overhead_bytes, "Bytes added to each frame when serialising (preamble, FCS)")
      ->capture_default_str();
  app.add_option("--rt-priority", r.rt_priority,
                 "SCHED_FIFO priority of the emulator (1..99), so node processes cannot delay frames; 0 = off")
      ->capture_default_str();
}

// The emulation's name, its nodes and their addresses.
void check_network(const RawOptions& r, EmuOptions& o) {
  if (r.prefix_opt->count() == 0) throw OptionsError("--prefix: required (or --cleanup NAME)");
  if (r.nodes_opt->count() == 0) throw OptionsError("--nodes: required");
  check_prefix("--prefix", r.prefix);
  o.prefix = r.prefix;
  if (r.nodes < 1 || r.nodes > static_cast<long long>(kMaxNodes))
    throw OptionsError(fmt::format("--nodes: {} is not in 1..{}", r.nodes, kMaxNodes));
  o.nodes = static_cast<std::size_t>(r.nodes);
  try {
    o.subnet = parse_ipv4_subnet(r.subnet);
  } catch (const std::invalid_argument& e) {
    throw OptionsError(fmt::format("--subnet: {}", e.what()));
  }
  if (o.nodes > o.subnet.max_host_id())
    throw OptionsError(fmt::format("--nodes: {} nodes do not fit --subnet {} (at most {})", o.nodes, r.subnet,
                                   o.subnet.max_host_id()));
  if (!is_plain_interface_name(r.interface))
    throw OptionsError(fmt::format("--interface: '{}' is not an interface name (1..15 of [A-Za-z0-9_.-])",
                                   r.interface));
  o.interface_name = r.interface;
  for (const auto& entry : r.joins) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos) throw OptionsError(fmt::format("--join: '{}' is not I=NAMESPACE", entry));
    const std::size_t id = node_id("--join", std::string_view(entry).substr(0, eq), entry, o.nodes);
    const std::string ns = entry.substr(eq + 1);
    if (!is_plain_name(ns, kMaxNamespaceName))
      throw OptionsError(fmt::format("--join: '{}' is not a namespace name", ns));
    if (!o.joins.emplace(id, ns).second)
      throw OptionsError(fmt::format("--join: node {} is given twice", id));
  }
}

// Queues and radio rates: per node, or one shared channel.
void check_rates(const RawOptions& r, EmuOptions& o) {
  if (r.queue_packets < 0 || r.queue_packets > 1'000'000)
    throw OptionsError(fmt::format("--queue-packets: {} is not in 0..1000000", r.queue_packets));
  o.queue_packets = static_cast<std::size_t>(r.queue_packets);
  o.radio_bps.assign(o.nodes, r.radio_bps.empty() ? 0 : parse_bps("--radio-bps", r.radio_bps));
  for (const auto& entry : r.radio_bps_node) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos) throw OptionsError(fmt::format("--radio-bps-node: '{}' is not I=BPS", entry));
    const std::size_t id = node_id("--radio-bps-node", std::string_view(entry).substr(0, eq), entry, o.nodes);
    o.radio_bps[id - 1] = parse_bps("--radio-bps-node", std::string_view(entry).substr(eq + 1));
  }
  if (!r.shared_channel_bps.empty()) o.shared_channel_bps = parse_bps("--shared-channel-bps", r.shared_channel_bps);
  if (o.shared_channel_bps > 0)
    for (auto bps : o.radio_bps)
      if (bps > 0)
        throw OptionsError("--shared-channel-bps: cannot be combined with --radio-bps or --radio-bps-node "
                           "(the shared channel is every node's radio)");
}

// Burst loss: on every link, or link by link.
void check_loss(const RawOptions& r, EmuOptions& o) {
  if (!r.gilbert.empty()) {
    try {
      o.gilbert = parse_gilbert(r.gilbert);
    } catch (const std::invalid_argument& e) {
      throw OptionsError(fmt::format("--gilbert: {}", e.what()));
    }
  }
  for (const auto& entry : r.gilbert_link) {
    LinkGilbert g = parse_link_gilbert(entry, o.nodes);
    for (const auto& other : o.link_gilbert)
      if (other.sender == g.sender && other.receiver == g.receiver)
        throw OptionsError(fmt::format("--gilbert-link: link {}:{} is given twice", g.sender, g.receiver));
    o.link_gilbert.push_back(g);
  }
}

// The half-duplex channel, which replaces every radio and the shared channel.
void check_half_duplex(const RawOptions& r, EmuOptions& o) {
  if (!r.half_duplex_bps.empty()) o.half_duplex.bps = parse_bps("--half-duplex-bps", r.half_duplex_bps);
  if (o.half_duplex.bps == 0 && (r.turnaround_opt->count() > 0 || r.max_hold_opt->count() > 0))
    throw OptionsError(fmt::format("{}: only applies with --half-duplex-bps",
                                   r.turnaround_opt->count() > 0 ? "--turnaround-ms" : "--max-hold-ms"));
  o.half_duplex.turnaround = milliseconds_option("--turnaround-ms", r.turnaround_ms);
  o.half_duplex.max_hold = milliseconds_option("--max-hold-ms", r.max_hold_ms);
  if (o.half_duplex.bps > 0 && o.shared_channel_bps > 0)
    throw OptionsError("--half-duplex-bps: cannot be combined with --shared-channel-bps");
  if (o.half_duplex.bps > 0)
    for (auto bps : o.radio_bps)
      if (bps > 0)
        throw OptionsError("--half-duplex-bps: cannot be combined with --radio-bps or --radio-bps-node "
                           "(the half-duplex channel is every node's radio)");
}

// Outputs, the run's length and the host: overhead and scheduling.
void check_run(const RawOptions& r, EmuOptions& o) {
  o.default_disconnected = r.default_disconnected;
  if (!r.pcap_dir.empty()) o.pcap_dir = r.pcap_dir;
  o.ipv6 = r.ipv6;
  if (!r.stats_json.empty()) o.stats_json = r.stats_json;
  if (r.duration_opt->count() > 0) {
    if (!std::isfinite(r.duration) || r.duration <= 0 || r.duration > 1e7)
      throw OptionsError(fmt::format("--duration: {} is not a positive number of seconds", r.duration));
    o.duration_s = r.duration;
  }
  if (r.overhead_bytes < 0 || r.overhead_bytes > 65535)
    throw OptionsError(fmt::format("--overhead-bytes: {} is not in 0..65535", r.overhead_bytes));
  o.overhead_bytes = static_cast<std::uint32_t>(r.overhead_bytes);
  if (r.rt_priority < 0 || r.rt_priority > 99)
    throw OptionsError(fmt::format("--rt-priority: {} is not in 0..99", r.rt_priority));
  o.rt_priority = static_cast<int>(r.rt_priority);
}

}  // namespace

bool is_valid_prefix(std::string_view prefix) {
  if (prefix.empty() || prefix.size() > kMaxPrefixLength || prefix.front() == '-') return false;
  for (char c : prefix)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

ModelConfig EmuOptions::model_config() const {
  ModelConfig c;
  c.nodes = nodes;
  c.queue_packets = queue_packets;
  c.radio_bps = radio_bps;
  c.shared_channel_bps = shared_channel_bps;
  c.gilbert = gilbert;
  c.link_gilbert = link_gilbert;
  c.half_duplex = half_duplex;
  c.default_connected = !default_disconnected;
  c.overhead_bytes = overhead_bytes;
  c.seed = seed;
  return c;
}

EmuOptions parse_emu_options(int argc, const char* const* argv) {
  CLI::App app{"dissem-emu: a one-machine MANE-style network emulator. Each node is a network namespace "
               "<prefix>-n<i> with a TAP device emu0; link effects follow EMANE commeffect (EEL) events."};
  app.name("dissem-emu");
  app.set_version_flag("--version", dissem::version_line("dissem-emu"), "print the version and exit");
  RawOptions r;
  add_options(app, r);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    throw HelpRequested{app.help()};
  } catch (const CLI::CallForVersion&) {
    throw HelpRequested{dissem::version_line("dissem-emu") + "\n"};
  } catch (const CLI::ParseError& e) {
    throw OptionsError(e.what());
  }

  EmuOptions o;
  if (r.cleanup_opt->count() > 0) {
    if (r.prefix_opt->count() > 0 || r.nodes_opt->count() > 0)
      throw OptionsError("--cleanup: takes no other options (it only removes <NAME>-n* namespaces)");
    check_prefix("--cleanup", r.cleanup);
    o.cleanup = r.cleanup;
    return o;
  }
  check_network(r, o);
  if (!r.eel.empty()) o.eel_path = r.eel;
  o.seed = r.seed;
  check_rates(r, o);
  check_loss(r, o);
  check_half_duplex(r, o);
  check_run(r, o);
  return o;
}

EmuOptions parse_emu_options(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"dissem-emu"};
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_emu_options(static_cast<int>(argv.size()), argv.data());
}

}  // namespace dissem::emu
