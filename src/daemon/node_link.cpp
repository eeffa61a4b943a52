#include "daemon/node_link.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <random>

#include "daemon/private_files.h"
#include "net/interface_info.h"

namespace dissem::daemon {
namespace {

constexpr const char* kNodeIdKey = "node_id";

std::uint64_t os_random64() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

NodeId settle_node_id(cache::Store& store, NodeId configured) {
  if (configured != 0) {
    store.set_state(kNodeIdKey, std::to_string(configured));
    store.flush();
    return configured;
  }
  if (auto saved = store.get_state(kNodeIdKey)) {
    NodeId id = 0;
    auto [ptr, ec] = std::from_chars(saved->data(), saved->data() + saved->size(), id);
    if (ec == std::errc{} && id != 0) return id;
  }
  NodeId id = 0;
  while (id == 0) id = static_cast<NodeId>(os_random64());
  store.set_state(kNodeIdKey, std::to_string(id));
  store.flush();
  return id;
}

std::unique_ptr<net::UdpTransport> open_transport(boost::asio::io_context& io, const DaemonConfig& config,
                                                  const std::string& name) {
  const LinkSettings link = config.net.link(name);
  net::TransportConfig t;
  t.interface = name;
  t.mode = link.mode == NetMode::Broadcast ? net::Mode::Broadcast : net::Mode::Multicast;
  t.group = link.group;
  t.port = link.port;
  t.ttl = static_cast<int>(link.ttl);
  t.socket_buffer_bytes = config.net.socket_buffer_bytes;
  t.offload = config.net.offload;
  return std::make_unique<net::UdpTransport>(io, t);
}

}  // namespace

std::vector<std::string> main_link_interfaces(const NetSection& net) {
  std::vector<std::string> out;
  for (const auto& name : net.interfaces)
    if (!net.separate(name)) out.push_back(name);
  if (out.empty() && !net.interfaces.empty()) out.push_back(net.interfaces.front());
  return out;
}

std::vector<std::string> own_link_interfaces(const NetSection& net) {
  const auto main = main_link_interfaces(net);
  std::vector<std::string> out;
  for (const auto& name : net.interfaces)
    if (net.separate(name) && std::find(main.begin(), main.end(), name) == main.end()) out.push_back(name);
  return out;
}

std::string own_link_cache_path(const std::string& main_path, const std::string& name) {
  const std::filesystem::path p(main_path);
  return (p.parent_path() / (p.stem().string() + "." + name + p.extension().string())).string();
}

NodeLink open_link(boost::asio::io_context& io, const DaemonConfig& config, const std::string& name, Micros now) {
  const bool main = name == kMainLink;
  const std::vector<std::string> interfaces = main ? main_link_interfaces(config.net) : std::vector{name};
  const std::string cache_path = main ? config.cache.path : own_link_cache_path(config.cache.path, name);
  prepare_cache_files(cache_path);
  auto store = cache::Store::open(cache_path, store_options(config));
  const NodeId id = settle_node_id(*store, main ? config.node.node_id : 0);
  // Fragments fit the link's smallest interface; IPv6 headers take 20 bytes more.
  std::uint32_t smallest_mtu = std::numeric_limits<std::uint32_t>::max();
  for (const auto& i : interfaces) {
    const std::uint32_t mtu = net::interface_mtu(i);
    const std::uint32_t extra = config.net.link(i).ipv6() ? kIpv6ExtraHeader : 0;
    smallest_mtu = std::min(smallest_mtu, mtu > extra ? mtu - extra : 0);
  }
  DaemonConfig own = config;
  if (const auto it = config.net.interface_links.find(name); !main && it != config.net.interface_links.end()) {
    own.engine.link_capacity_bps = *it->second.link_capacity_bps;
    if (it->second.payload_size) own.engine.payload_size = *it->second.payload_size;
  }
  const auto engine_config = engine_config_for(own, id, os_random64(), smallest_mtu);

  NodeLink link;
  link.name = name;
  link.node = std::make_unique<engine::Node>(engine_config, std::move(store), now);
  for (const auto& i : interfaces) {
    link.transports.push_back(open_transport(io, config, i));
    const auto to = link.transports.back()->destination();
    link.described += fmt::format("{}{} {}", link.described.empty() ? "" : ", ", i,
                                  to.address().is_v6() ? fmt::format("[{}]:{}", to.address().to_string(), to.port())
                                                       : fmt::format("{}:{}", to.address().to_string(), to.port()));
  }
  link.described += fmt::format("; node {:08x}, {} bit/s, fragments of {} bytes, cache {}", id,
                                engine_config.link_capacity_bps, engine_config.payload_size, cache_path);
  return link;
}

}  // namespace dissem::daemon
