#include "emulated_network.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "namespaces.h"

namespace dissem::emu {

EmulatedNetwork::EmulatedNetwork(const NetworkPlan& plan) : prefix_(plan.prefix) {
  if (const auto existing = namespaces_with_prefix(plan.prefix); !existing.empty()) {
    torn_down_ = true;  // not ours: never remove them
    throw std::runtime_error(fmt::format(
        "namespaces of emulation '{}' already exist ({}{}); run 'dissem-emu --cleanup {}' first", plan.prefix,
        existing.front(), existing.size() > 1 ? fmt::format(" and {} more", existing.size() - 1) : "",
        plan.prefix));
  }
  try {
    build(plan);
  } catch (...) {
    teardown();
    throw;
  }
}

EmulatedNetwork::~EmulatedNetwork() { teardown(); }

void EmulatedNetwork::build(const NetworkPlan& plan) {
  const AddressPlan macs(plan.prefix, plan.nodes);
  std::vector<std::string> names;
  for (NodeId id = 1; id <= plan.nodes; ++id) {
    NodeInfo n;
    n.id = id;
    if (const auto joined = plan.joins.find(id); joined != plan.joins.end()) {
      if (!std::filesystem::exists(std::filesystem::path(kNetnsDirectory) / joined->second))
        throw std::runtime_error(fmt::format("--join {}={}: no such network namespace", id, joined->second));
      n.namespace_name = joined->second;
      n.joined = true;
    } else {
      n.namespace_name = namespace_name(plan.prefix, id);
      names.push_back(n.namespace_name);
    }
    n.address = format_ipv4(plan.subnet.host(id));
    n.mac = macs.mac_of(id);
    nodes_.push_back(std::move(n));
  }
  if (!names.empty()) create_namespaces(names);

  std::vector<std::pair<std::string, std::string>> moves;
  for (const auto& n : nodes_) {
    std::string staging = plan.prefix;
    staging.append("-t").append(std::to_string(n.id));
    taps_.push_back(TapDevice::create(staging));
    moves.emplace_back(staging, n.namespace_name);
  }
  move_links_to_namespaces(moves);

  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    configure_node(plan, nodes_[i], taps_[i]);
    if (plan.pcap_dir) {
      std::error_code ec;
      std::filesystem::create_directories(*plan.pcap_dir, ec);
      if (ec) throw std::runtime_error(fmt::format("cannot create pcap directory {}: {}", *plan.pcap_dir, ec.message()));
      pcaps_.push_back(std::make_unique<PcapWriter>(fmt::format("{}/n{}.pcap", *plan.pcap_dir, nodes_[i].id)));
    }
  }
}

void EmulatedNetwork::configure_node(const NetworkPlan& plan, const NodeInfo& n, TapDevice& tap) {
  const std::string& dev = plan.interface_name;
  const auto sysctl = [&](std::string_view scope, const char* name, const char* value) {
    write_sysctl_in_namespace(n.namespace_name, fmt::format("/proc/sys/net/ipv6/conf/{}/{}", scope, name), value);
  };
  // IPv6 off before any link is up, so no router solicitations, DAD or MLD
  // frames join the experiment's traffic ("all" also covers lo and the TAP).
  // On, its link-local address is usable as soon as the link is up. A joined
  // namespace is another emulation's: only our own interface is set, once
  // it has its name (and before it is up).
  if (!n.joined) {
    for (const char* scope : {"all", "default"}) {
      if (!plan.ipv6) {
        sysctl(scope, "disable_ipv6", "1");
        continue;
      }
      sysctl(scope, "accept_dad", "0");
      sysctl(scope, "router_solicitations", "0");
    }
  }
  ip_batch_in_namespace(n.namespace_name, fmt::format("link set dev {} name {}\n", tap.name(), dev));
  if (n.joined) {
    sysctl(dev, "disable_ipv6", plan.ipv6 ? "0" : "1");
    if (plan.ipv6) {
      sysctl(dev, "accept_dad", "0");
      sysctl(dev, "router_solicitations", "0");
    }
  }
  const std::string broadcast = format_ipv4(plan.subnet.broadcast());
  std::string commands = fmt::format("link set dev {} address {} mtu {}\n", dev, format_mac(n.mac), kNodeMtu);
  commands.append(fmt::format("addr add {}/{} broadcast {} dev {}\n", n.address, plan.subnet.prefix_length,
                              broadcast, dev));
  commands.append("link set dev lo up\n");
  commands.append(fmt::format("link set dev {} up\n", dev));
  ip_batch_in_namespace(n.namespace_name, commands);
  tap.set_name(fmt::format("{}:{}", n.namespace_name, dev));
}

bool EmulatedNetwork::flush_pcaps() {
  bool ok = true;
  for (auto& p : pcaps_) ok = p->flush() && ok;
  return ok;
}

std::vector<std::string> EmulatedNetwork::teardown() {
  if (torn_down_) return {};
  torn_down_ = true;
  pcaps_.clear();
  taps_.clear();  // closing a non-persistent TAP deletes the device
  // Everything named <prefix>-n*: at start-up none existed, so all are ours,
  // including any made by a batch that failed part-way.
  return delete_namespaces(namespaces_with_prefix(prefix_));
}

}  // namespace dissem::emu
