// The nodes on the host: for node i a network namespace <prefix>-n<i> holding
// TAP emu0 (MAC from the address plan, <network>+i/<len>, MTU 1500, up),
// loopback up, IPv6 off; and, with --pcap-dir, the capture file n<i>.pcap.
// A joined node (--join I=NAMESPACE) is a namespace that exists already, a
// node of another emulation: its TAP (named by --interface, which must then
// differ from that emulation's) is added there, and the namespace is left
// alone at teardown. So one host can sit on two emulated networks.
//
// Built in this order, so a failure part-way leaves only namespaces behind,
// which teardown removes: (1) namespaces, (2) TAPs created in the root
// namespace under a staging name <prefix>-t<i>, (3) TAPs moved into the
// namespaces, (4) per node: IPv6 off, rename to emu0, address, up, pcap file.
// Closing a TAP removes it, so a joined namespace keeps nothing of ours.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ethernet.h"
#include "ipv4_subnet.h"
#include "pcap_writer.h"
#include "tap_device.h"

namespace dissem::emu {

inline constexpr int kNodeMtu = 1500;

struct NetworkPlan {
  std::string prefix;
  std::size_t nodes = 0;
  Ipv4Subnet subnet;
  std::optional<std::string> pcap_dir;
  // IPv6 on: each node's emu0 gets a link-local address, usable at once (no
  // duplicate address detection, no router solicitations); its MLD reports
  // then join the experiment's traffic. Off: IPv6 disabled in every namespace.
  bool ipv6 = false;
  std::string interface_name = "emu0";
  std::map<std::size_t, std::string> joins;  // node id -> an existing namespace
};

struct NodeInfo {
  NodeId id = 0;
  std::string namespace_name;
  std::string address;  // dotted quad, no prefix length
  MacAddress mac{};
  bool joined = false;  // the namespace is another emulation's (--join)
};

class EmulatedNetwork {
 public:
  // Refuses (std::runtime_error) if any <prefix>-n* namespace exists. On any
  // failure, removes what it made and throws.
  explicit EmulatedNetwork(const NetworkPlan& plan);
  ~EmulatedNetwork();  // tears down
  EmulatedNetwork(const EmulatedNetwork&) = delete;
  EmulatedNetwork& operator=(const EmulatedNetwork&) = delete;

  const std::vector<NodeInfo>& nodes() const { return nodes_; }
  TapDevice& tap(NodeId id) { return taps_[id - 1]; }
  // nullptr without --pcap-dir.
  PcapWriter* pcap(NodeId id) { return pcaps_.empty() ? nullptr : pcaps_[id - 1].get(); }
  // Flushes every pcap file; false if any lost records.
  bool flush_pcaps();

  // Closes the TAPs (which removes them) and removes the namespaces.
  // Idempotent. Returns namespaces that could not be removed.
  std::vector<std::string> teardown();

 private:
  void build(const NetworkPlan& plan);
  // Step (4) for one node: its TAP renamed, addressed and up, IPv6 as planned.
  static void configure_node(const NetworkPlan& plan, const NodeInfo& n, TapDevice& tap);

  std::string prefix_;
  std::vector<NodeInfo> nodes_;
  std::vector<TapDevice> taps_;
  std::vector<std::unique_ptr<PcapWriter>> pcaps_;
  bool torn_down_ = false;
};

}  // namespace dissem::emu
