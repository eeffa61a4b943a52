// The nodes on the host: for node i a network namespace <prefix>-n<i> holding
// TAP emu0 (MAC from the address plan, <network>+i/<len>, MTU 1500, up),
// loopback up, IPv6 off; and, with --pcap-dir, the capture file n<i>.pcap.
//
// Built in this order, so a failure part-way leaves only namespaces behind,
// which teardown removes: (1) namespaces, (2) TAPs created in the root
// namespace under a staging name <prefix>-t<i>, (3) TAPs moved into the
// namespaces, (4) per node: IPv6 off, rename to emu0, address, up, pcap file.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ethernet.h"
#include "ipv4_subnet.h"
#include "pcap_writer.h"
#include "tap_device.h"

namespace dissem::emu {

inline constexpr const char* kNodeInterface = "emu0";
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
};

struct NodeInfo {
  NodeId id = 0;
  std::string namespace_name;
  std::string address;  // dotted quad, no prefix length
  MacAddress mac{};
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

  std::string prefix_;
  std::vector<NodeInfo> nodes_;
  std::vector<TapDevice> taps_;
  std::vector<std::unique_ptr<PcapWriter>> pcaps_;
  bool torn_down_ = false;
};

}  // namespace dissem::emu
