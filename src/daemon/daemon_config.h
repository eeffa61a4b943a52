// dissemd's configuration: what the daemon needs besides the engine's
// tunables, with defaults that work without a file.
//
// Sources, later ones winning: defaults, the TOML file (--config), --set
// assignments, then the direct flags (--port, ...). daemon_keys.h names every
// key and validates it; config_toml.h reads and prints the file form;
// daemon_args.h parses the command line.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cache/store.h"
#include "engine/config.h"
#include "engine/config_keys.h"
#include "core/types.h"

namespace dissem::daemon {

// One error type for every configuration problem; its message names the key.
using ConfigError = engine::ConfigError;

enum class NetMode { Broadcast, Multicast };
enum class LogLevel { Error, Warn, Info, Debug };

std::string_view to_string(NetMode mode);
std::string_view to_string(LogLevel level);

struct NodeSection {
  // 0: generate one at first start and keep it in the cache database, so a
  // restart keeps the node's identity (and its sequence numbers).
  NodeId node_id = 0;
  bool operator==(const NodeSection&) const = default;
};

// What one interface uses instead of [net]'s values: a table
// [net.interface.NAME] (daemon/interface_keys.h). A node may use IPv4 on one
// interface and IPv6 on another, or another port or group per network.
struct InterfaceLink {
  std::optional<NetMode> mode;
  std::optional<std::string> group;
  std::optional<std::uint16_t> port;
  std::optional<std::uint32_t> ttl;
  // A link of its own: this interface gets its own node (engine) with this
  // capacity, its own pacer, queues, neighbours, beacons, requests and
  // repairs, and its own cache beside cache.path; the daemon carries
  // messages between its links where the other side wants them
  // (daemon/link_bridge.h). Without it the interface shares the main link.
  std::optional<std::uint64_t> link_capacity_bps;
  std::optional<std::uint32_t> payload_size;  // that link's fragments (0: sized to the MTU)
  bool operator==(const InterfaceLink&) const = default;
};

// The link settings one interface runs with.
struct LinkSettings {
  NetMode mode = NetMode::Multicast;
  std::string group;
  std::uint16_t port = 0;
  std::uint32_t ttl = 1;
  // IPv6: multicast to a group of link-local scope (ff02::/16) from the
  // interface's link-local address, with 40-byte IP headers.
  bool ipv6() const { return mode == NetMode::Multicast && group.find(':') != std::string::npos; }
};

struct NetSection {
  // Loopback by default: a daemon started without configuration talks only
  // to daemons on this host and never sends by the default route.
  std::vector<std::string> interfaces{"lo"};
  NetMode mode = NetMode::Multicast;
  // Organisation-local scope (RFC 2365); or IPv6 of link-local scope, such
  // as ff02::4242 (IPv6 multicast does not run on lo: give an interface).
  std::string group = "239.255.42.99";
  std::uint16_t port = 42424;
  std::uint32_t ttl = 1;  // multicast hops; 1 = the local link only
  // SO_RCVBUF/SO_SNDBUF request per socket; the kernel caps it at
  // net.core.rmem_max / wmem_max. 0 leaves the OS default.
  std::uint64_t socket_buffer_bytes = 32u << 20;
  // UDP segmentation and receive offload (GSO/GRO): fewer system calls per
  // datagram, the same datagrams on the wire. Off for drivers that mishandle them.
  bool offload = true;
  // How long start-up waits for an interface that is not ready yet (absent,
  // without an address, or with a tentative IPv6 link-local one); 0 fails at once.
  std::uint32_t interface_wait_s = 30;
  std::map<std::string, InterfaceLink> interface_links;  // by interface name; each must be in `interfaces`
  bool operator==(const NetSection&) const = default;

  // Interface `name`'s own settings where it has them, else these.
  LinkSettings link(const std::string& name) const;
  // Whether `name` is a link of its own (its table sets link_capacity_bps).
  bool separate(const std::string& name) const;
};

struct CacheSection {
  std::string path;  // SQLite database; default from the environment (RuntimeEnvironment)
  std::uint64_t quota_bytes = cache::StoreOptions{}.quota_bytes;
  bool sync_full = cache::StoreOptions{}.sync_full;
  std::uint32_t payload_file_min_bytes = cache::StoreOptions{}.payload_file_min_bytes;
  bool operator==(const CacheSection&) const = default;
};

struct IpcSection {
  std::string socket;           // Unix domain socket; default from the environment
  std::uint32_t mode = 0660;    // permission bits of the socket file
  bool operator==(const IpcSection&) const = default;
};

// The metrics endpoint (daemon/metrics_server.h): Prometheus' text format
// over HTTP, off unless enabled.
struct MetricsSection {
  bool enabled = false;
  std::string listen = "127.0.0.1:9464";  // ADDRESS:PORT, [v6]:PORT; loopback unless the operator says otherwise
  bool operator==(const MetricsSection&) const = default;
};

struct LogSection {
  LogLevel level = LogLevel::Info;
  bool operator==(const LogSection&) const = default;
};

// One keyed group: its key files are PREFIX.verify, PREFIX.sign, PREFIX.seal.
struct GroupKeyFiles {
  std::string group;
  std::string prefix;
  bool operator==(const GroupKeyFiles&) const = default;
};

// Where the keys are (daemon/key_files.h); never the keys themselves. They
// are read at start-up, by engine_config_for, and again at each reload
// (daemon/config_reload.h). Nothing configured: an open network.
struct SecuritySection {
  std::string network_key_file;             // "" = datagrams not authenticated
  std::vector<GroupKeyFiles> group_keys;    // "GROUP=PREFIX" in the text form
  // When each new epoch's keys start being used to send, sign and seal (Unix
  // seconds; "EPOCH=SECONDS" in the text form). Until then they are only
  // accepted: a rotation installs them everywhere first, then all switch.
  std::map<std::uint32_t, std::uint64_t> send_from;
  // Revocation (engine/security/security_config.h): epochs whose keys are no
  // longer trusted, and node ids whose datagrams and new messages are
  // refused. Applied by a reload (SIGHUP, `dissem reload`) like any key.
  std::set<std::uint32_t> revoked_epochs;
  std::set<std::uint32_t> revoked_publishers;
  bool empty() const { return network_key_file.empty() && group_keys.empty(); }
  bool operator==(const SecuritySection&) const = default;
};

// EngineConfig's defaults with seed 0 (see DaemonConfig::engine).
engine::EngineConfig daemon_engine_defaults();

struct DaemonConfig {
  NodeSection node;
  NetSection net;
  CacheSection cache;
  IpcSection ipc;
  MetricsSection metrics;
  LogSection log;
  SecuritySection security;
  // Engine tunables, keys as in engine/config_keys.h. Two differ from a bare
  // EngineConfig: node_id is not used (node.node_id is the one source), and
  // seed defaults to 0, meaning "fresh from the OS at each start": daemons
  // sharing one seed would draw the same "random" answer delays and collide.
  engine::EngineConfig engine = daemon_engine_defaults();
};

// Engine fields compare by their text form (engine::describe_config).
bool operator==(const DaemonConfig& a, const DaemonConfig& b);

// What the default paths depend on, passed in so tests need not change the
// process's identity or environment.
struct RuntimeEnvironment {
  bool root = false;
  std::string xdg_runtime_dir;  // empty when unset
  std::uint32_t uid = 0;

  static RuntimeEnvironment current();
};

// Defaults: as root, /var/lib/dissem/cache.db and /run/dissem/dissemd.sock;
// otherwise both under $XDG_RUNTIME_DIR/dissem/, or, without it, under
// /tmp/dissem-<uid>/ (the daemon must create that directory 0700 and refuse
// one owned by another user, since anyone can create names in /tmp).
DaemonConfig default_config(const RuntimeEnvironment& env);

// IPv6's header is this much longer than IPv4's: an IPv6 interface sizes
// fragments as an IPv4 one with that much smaller an MTU.
constexpr std::uint32_t kIpv6ExtraHeader = 20;

// Bytes of a datagram that are not fragment payload when the payload is
// sized to the link: IPv4 (20) + UDP (8) + our header with room for a group
// name of about 30 characters (see docs/protocol.md). A 1500-byte Ethernet
// MTU gives the paper's 1400-byte fragments; loopback's 65536 gives 65000
// (the engine's ceiling). Longer group names make the kernel fragment at IP.
constexpr std::uint32_t kDatagramReserve = 100;
// With keys, datagrams carry up to this much more: a 32-byte authentication
// trailer and a signature field of about 74 bytes.
constexpr std::uint32_t kSecurityReserve = 112;

// The fragment payload for a node whose smallest interface MTU is `mtu`;
// `keyed`: any key is configured, so kSecurityReserve more is kept free.
std::uint32_t payload_for_mtu(std::uint32_t mtu, bool keyed = false);

// The keys the section names, read from their files, with its send_from
// times and revocations. Throws ConfigError naming the key
// (security.network_key_file, security.group_keys, the file and the line;
// security.revoked_epochs when it leaves some kind of key no epoch).
engine::SecurityConfig load_security(const SecuritySection& section);

// The EngineConfig to construct the Node with: `node_id` (configured or
// generated) filled in, a seed of 0 replaced by `fresh_seed`, the keys of
// config.security loaded (load_security), and a payload_size of 0 replaced
// by payload_for_mtu(smallest_mtu, keyed).
engine::EngineConfig engine_config_for(const DaemonConfig& config, NodeId node_id, std::uint64_t fresh_seed,
                                       std::uint32_t smallest_mtu = 1500);

cache::StoreOptions store_options(const DaemonConfig& config);

}  // namespace dissem::daemon
