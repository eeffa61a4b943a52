// Authenticated groups between real daemons on loopback: keys written by
// daemon/key_files, configured with --set security.*; members exchange a
// sealed, signed group while dissem-rogue sends every attack it has, and a
// daemon without the keys gets nothing in.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/client.h"
#include "daemon/key_files.h"
#include "support/daemon_process.h"
#include "support/rogue_run.h"

using namespace std::chrono_literals;
using dissem::testing::DaemonProcess;
using dissem::testing::pattern;
using dissem::daemon::KeyKind;

namespace authenticated_air_test {
namespace {

constexpr dissem::NodeId kPublisher = 0x0000A11C;

std::uint64_t event(const dissem::ipc::StatsSnapshot& s, dissem::engine::IntegrityEvent e) {
  return s.engine.integrity[static_cast<std::size_t>(e)];
}

class AuthenticatedAir : public dissem::testing::DaemonTest {
 protected:
  void SetUp() override {
    DaemonTest::SetUp();
    const auto net = dissem::daemon::generate_network_key();
    dissem::daemon::create_key_file((dir_ / "net.key").string(), KeyKind::Network, "", 1, net);
    dissem::daemon::SigningPair pair;
    dissem::daemon::generate_signing_pair(pair);
    const std::string prefix = (dir_ / "g").string();
    dissem::daemon::create_key_file(dissem::daemon::group_key_path(prefix, KeyKind::Verify), KeyKind::Verify, "g", 1,
                                    pair.verify);
    dissem::daemon::create_key_file(dissem::daemon::group_key_path(prefix, KeyKind::Sign), KeyKind::Sign, "g", 1,
                                    pair.sign);
    const auto seal = dissem::daemon::generate_seal_key();
    dissem::daemon::create_key_file(dissem::daemon::group_key_path(prefix, KeyKind::Seal), KeyKind::Seal, "g", 1,
                                    seal);
  }
  std::vector<std::string> keyed(std::vector<std::string> extra = {}) const {
    extra.insert(extra.end(), {"--set", "security.network_key_file=" + (dir_ / "net.key").string(), "--set",
                               "security.group_keys=g=" + (dir_ / "g").string()});
    return extra;
  }
  static std::vector<std::string> publisher() { return {"--set", "node.node_id=" + std::to_string(kPublisher)}; }
};

}  // namespace

TEST_F(AuthenticatedAir, MembersExchangeASealedGroupWhileEveryAttackOfTheRogueIsRefused) {
  DaemonProcess sub(dir_, "sub", port_, keyed());
  DaemonProcess pub(dir_, "pub", port_, keyed(publisher()));
  dissem::client::Client cs(sub.socket()), cp(pub.socket());
  cs.subscribe("g");
  const auto first = pattern(3000, 999);
  cp.publish("g", first);  // something for the rogue to learn the stream from
  const auto d = cs.next_delivery(10s);
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->payload == first) << "opened with the group's seal key";
  dissem::testing::RogueRun rogue(port_, "--attack every --rate 2000 --duration-s 4 --seed 11");
  std::vector<std::vector<std::uint8_t>> sent;
  for (int m = 0; m < 12; ++m) {
    sent.push_back(pattern(6000, static_cast<std::uint32_t>(700 + m)));
    cp.publish("g", sent.back());
    std::this_thread::sleep_for(200ms);
  }
  rogue.join();
  ASSERT_EQ(rogue.exit_code(), 0) << rogue.output();
  std::size_t intact = 0;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    auto got = cs.next_delivery(20s);
    ASSERT_TRUE(got) << "message " << i << " not delivered";
    intact += got->payload == sent[i] ? 1 : 0;
  }
  EXPECT_EQ(intact, sent.size()) << "every message, every byte the publisher's";
  // A sanitised daemon on a loaded host may still be working through the
  // rogue's datagrams in its socket buffer: wait (at most 20 s) until its
  // refusals stop growing, then hold them against what the rogue sent.
  const auto rogue_sent = nlohmann::json::parse(rogue.output()).at("datagrams").get<std::uint64_t>();
  const auto refused = [&cs] {
    const auto s = cs.stats();
    return event(s, dissem::engine::IntegrityEvent::Unauthenticated) +
           event(s, dissem::engine::IntegrityEvent::Replayed);
  };
  std::uint64_t seen = refused();
  for (int i = 0; i < 40 && seen < rogue_sent; ++i) {
    std::this_thread::sleep_for(500ms);
    const auto now = refused();
    if (now == seen) break;
    seen = now;
  }
  const auto s = cs.stats();
  EXPECT_GT(rogue_sent, 1000u) << "the attack had force: " << rogue.output();
  EXPECT_GE(2 * seen, rogue_sent) << "most of the rogue's datagrams reached the daemon and were refused (the kernel "
                                     "may drop some from a full socket buffer)";
  EXPECT_LE(seen, rogue_sent) << "nothing but the rogue's datagrams was refused";
  EXPECT_EQ(s.engine.malformed_total(), 0u) << "refused before parsing: nothing reached the decoder";
  EXPECT_EQ(s.engine.mfrs_received, 0u) << "none of its request flood was taken";
  EXPECT_GT(event(s, dissem::engine::IntegrityEvent::Replayed), 0u) << "its replays of real datagrams, refused";
  using dissem::engine::IntegrityEvent;
  EXPECT_EQ(s.engine.integrity_total(),
            event(s, IntegrityEvent::Unauthenticated) + event(s, IntegrityEvent::Replayed))
      << "no forged data got as far as the digest or signature checks";
}

TEST_F(AuthenticatedAir, ADaemonWithoutTheKeysGetsNothingInNorOut) {
  DaemonProcess sub(dir_, "sub", port_, keyed());
  DaemonProcess outsider(dir_, "outsider", port_, publisher());  // no keys
  dissem::client::Client cs(sub.socket()), co(outsider.socket());
  cs.subscribe("g");
  co.subscribe("g");
  co.publish("g", pattern(2000, 5));
  EXPECT_FALSE(cs.next_delivery(2s)) << "an outsider's message is not taken";
  EXPECT_GT(event(cs.stats(), dissem::engine::IntegrityEvent::Unauthenticated), 0u);
  // A member's message does not reach the outsider's application as the
  // member's data either: it hears sealed datagrams it cannot tell from
  // garbage, and in any case cannot open a sealed payload.
  DaemonProcess pub(dir_, "pub", port_, keyed({"--set", "node.node_id=77"}));
  dissem::client::Client cp(pub.socket());
  const auto secret = pattern(2000, 6);
  cp.publish("g", secret);
  ASSERT_TRUE(cs.next_delivery(10s)) << "members still talk";
  for (auto got = co.next_delivery(2s); got; got = co.next_delivery(500ms))
    EXPECT_FALSE(got->payload == secret) << "the outsider read a sealed payload";
}

}  // namespace authenticated_air_test
