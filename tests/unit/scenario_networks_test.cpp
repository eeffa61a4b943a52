// [networks] of the scenario language: several emulated networks, a node on
// two of them (a gateway), each network's interface and emulator keys, the
// links the shorthands make only inside a network, and errors naming the key.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "scenario/cell.h"
#include "scenario/expansion.h"
#include "scenario/scenario_document.h"
#include "scenario/scenario_error.h"
#include "support/scenario_docs.h"

using namespace dissem::scenario;
using namespace dissem::test;

namespace scenario_networks_test {
namespace {

// Six nodes: a1..a3 on network a, b1 and b2 on network b, gw on both.
ScenarioDocument two_nets(const std::string& networks, const std::string& topology = "kind = \"full\"") {
  const std::string text =
      "name = \"t\"\ntime_limit_s = 30\n[nodes]\nnames = [\"a1\", \"a2\", \"a3\", \"gw\", \"b1\", \"b2\"]\n"
      "[nodes.roles]\nside_b = [\"b1\", \"b2\"]\n[topology]\n" +
      topology + "\n" + networks + "\n[systems.x.roles.all]\ncommand = \"true\"\n";
  return parse_document(text, "s.toml", ".");
}

const std::string kNetworks =
    "[networks.a]\nnodes = [\"a1\", \"a2\", \"a3\", \"gw\"]\n"
    "[networks.b]\nnodes = [\"gw\", \"role:side_b\"]\n[networks.b.emulator]\nhalf_duplex_bps = 2400\n";

}  // namespace

TEST(ScenarioNetworks, EachNetworkHasItsNodesInterfaceAndEmulator) {
  const auto d = two_nets(kNetworks);
  ASSERT_EQ(d.networks.size(), 2u);
  EXPECT_EQ(d.networks[0].name, "a");
  EXPECT_EQ(d.networks[0].nodes, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(d.networks[0].interface, "emu0");
  EXPECT_FALSE(d.networks[0].emulator.half_duplex_bps);
  EXPECT_EQ(d.networks[1].nodes, (std::vector<int>{4, 5, 6}));
  EXPECT_EQ(d.networks[1].interface, "emu1");
  EXPECT_TRUE(d.networks[1].emulator.half_duplex_bps);
  EXPECT_TRUE(two_nets("").networks.empty());
  const auto named = two_nets("[networks.a]\nnodes = \"*\"\ninterface = \"manet0\"\n");
  EXPECT_EQ(named.networks[0].interface, "manet0");
}

TEST(ScenarioNetworks, ShorthandLinksStayInsideANetwork) {
  const auto x = expand_doc(two_nets(kNetworks));
  EXPECT_EQ(x.links.size(), 4u * 3u + 3u * 2u);  // full inside each, nothing across
  EXPECT_TRUE(x.links.contains({1, 4}) && x.links.contains({4, 5}) && x.links.contains({6, 4}));
  EXPECT_FALSE(x.links.contains({1, 5}) || x.links.contains({5, 3}));
  EXPECT_TRUE(x.default_disconnected);
  // Without [networks], the same topology links every pair.
  EXPECT_EQ(expand_doc(two_nets("")).links.size(), 30u);
}

TEST(ScenarioNetworks, AnOverrideAcrossNetworksMatchesNoLink) {
  const auto d = two_nets(kNetworks, "kind = \"full\"\n[[topology.override]]\nfrom = \"a1\"\nto = \"b1\"\nreliability = 0.5");
  EXPECT_EQ(thrown_by([&] { expand_doc(d); }), "s.toml: topology.override[1]: matches no link of the full topology");
}

TEST(ScenarioNetworks, LiteralEelMayNotLinkNodesOfNoCommonNetwork) {
  const auto ok = two_nets(kNetworks, "eel = \"0 nem:1 commeffect nem:4,0,0,0,0,0,0\\n0 nem:1 commeffect nem:5,0,0,100,0,0,0\"");
  EXPECT_EQ(expand_doc(ok).links.size(), 2u);  // a disabled link across is no link
  const auto bad = two_nets(kNetworks, "eel = \"0 nem:1 commeffect nem:5,0,0,10,0,0,0\"");
  EXPECT_EQ(thrown_by([&] { expand_doc(bad); }),
            "s.toml: topology.eel: links nem:1 to nem:5, which share no network of [networks]");
}

TEST(ScenarioNetworks, ErrorsNameTheKey) {
  EXPECT_EQ(thrown_by([] { two_nets("[networks.a]\nnodes = [\"a1\", \"a2\", \"a3\", \"gw\"]\n"); }),
            "s.toml: networks: node b1 is on no network");
  EXPECT_EQ(thrown_by([] { two_nets("[networks.a]\ninterface = \"x\"\n"); }).rfind("s.toml: networks.a.nodes: is required", 0),
            0u);
  EXPECT_EQ(thrown_by([] { two_nets("[networks.a]\nnodes = \"*\"\ninterface = \"e:1\"\n"); }),
            "s.toml: networks.a.interface: 'e:1' is not an interface name (1..15 of [A-Za-z0-9_.-])");
  EXPECT_EQ(thrown_by([] {
              two_nets("[networks.a]\nnodes = \"*\"\ninterface = \"r0\"\n[networks.b]\nnodes = \"gw\"\ninterface = \"r0\"\n");
            }),
            "s.toml: networks.b.interface: 'r0' is another network's interface too");
  EXPECT_EQ(thrown_by([] { two_nets("[networks.a]\nnodes = \"*\"\n[networks.a.emulator]\nturnaround_ms = 5\n"); }),
            "s.toml: networks.a.emulator.turnaround_ms: only applies with half_duplex_bps (the half-duplex channel)");
  EXPECT_EQ(thrown_by([] { two_nets("[networks.a]\nnodes = \"*\"\nradio = 5\n"); }).rfind("s.toml: networks.a.radio: unknown key", 0),
            0u);
}

}  // namespace scenario_networks_test
