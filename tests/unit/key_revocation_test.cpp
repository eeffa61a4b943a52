// Keys changed on running nodes (Node::set_security): a new epoch installed
// everywhere then switched to, revoked epochs and publishers refused and
// counted, what was held before a revocation kept, and changes that need a
// restart refused whole.
#include <gtest/gtest.h>

#include "engine/config_keys.h"
#include "engine/node.h"
#include "support/keyed_net.h"
#include "support/node_harness.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace key_revocation_test {

TEST(KeyRevocation, ARunningNodeTakesANewEpochAndSwitchesWhenItIsDue) {
  KeyedNet k;
  const GroupKeyPair next;
  Node pub(KeyedNet::config(1, k.member(true)), cache::Store::open(":memory:"), kT0);
  Node sub(KeyedNet::config(2, k.member(false)), cache::Store::open(":memory:"), kT0);
  sub.subscribe("ops", {}, kT0);
  // The rotation reaches both nodes while they run: epoch 2 due in an hour.
  const std::uint64_t switch_s = to_unix_seconds(kT0) + 3600;
  SecurityConfig rotated = k.member(true);
  rotated.groups["ops"].verify[2] = next.pk;
  rotated.groups["ops"].sign[2] = next.sk;
  rotated.groups["ops"].seal[2] = random_key();
  rotated.network[2] = random_key();
  rotated.send_from[2] = switch_s;
  pub.set_security(rotated, kT0);
  SecurityConfig reader = rotated;
  reader.groups["ops"].sign.clear();
  sub.set_security(reader, kT0);

  pub.publish(request("ops", bytes_of(500, 1)), kT0);
  relay(pub, {&sub}, kT0);
  auto before = deliveries(sub);
  ASSERT_EQ(before.size(), 1u);
  const Micros later = static_cast<Micros>(switch_s + 1) * kSeconds;
  pub.publish(request("ops", bytes_of(500, 2)), later);
  relay(pub, {&sub}, later);
  EXPECT_EQ(deliveries(sub).size(), 1u) << "signed under epoch 2 once due, and taken";
  const auto held = pub.list({});
  ASSERT_EQ(held.size(), 2u);
  EXPECT_EQ(held[0].meta.key_epoch, 1u);
  EXPECT_EQ(held[1].meta.key_epoch, 2u) << "the publisher switched to the new epoch";
  // Epoch 1 revoked everywhere: nothing under it is taken any more, and the
  // publisher never uses it again.
  rotated.revoked_epochs.insert(1);
  reader.revoked_epochs.insert(1);
  pub.set_security(rotated, later);
  sub.set_security(reader, later);
  pub.publish(request("ops", bytes_of(500, 3)), later + kSeconds);
  relay(pub, {&sub}, later + kSeconds);
  EXPECT_EQ(deliveries(sub).size(), 1u);
  EXPECT_EQ(integrity(sub, IntegrityEvent::Revoked), 0u);
}

TEST(KeyRevocation, DataSealedOrSignedUnderARevokedEpochIsRefusedAndCounted) {
  KeyedNet k;
  Node pub(KeyedNet::config(1, k.member(true)), cache::Store::open(":memory:"), kT0);  // not told of the revocation
  SecurityConfig revoking = k.member(false);
  const GroupKeyPair next;
  revoking.network[2] = random_key();
  revoking.groups["ops"].verify[2] = next.pk;
  revoking.groups["ops"].seal[2] = random_key();
  revoking.revoked_epochs.insert(1);
  Node sub(KeyedNet::config(2, k.member(false)), cache::Store::open(":memory:"), kT0);
  sub.subscribe("ops", {}, kT0);
  sub.set_security(revoking, kT0);
  pub.publish(request("ops", bytes_of(500, 1)), kT0);
  relay(pub, {&sub}, kT0);
  EXPECT_TRUE(deliveries(sub).empty());
  EXPECT_GT(integrity(sub, IntegrityEvent::Revoked), 0u) << "datagrams sealed under the revoked network epoch";
  EXPECT_EQ(integrity(sub, IntegrityEvent::Unauthenticated), 0u) << "they verify: they are refused as revoked";
}

TEST(KeyRevocation, ARevokedPublishersNewMessagesAreRefusedWhatWasHeldStays) {
  KeyedNet k;
  Node rogue(KeyedNet::config(7, k.member(true)), cache::Store::open(":memory:"), kT0);
  Node good(KeyedNet::config(1, k.member(true)), cache::Store::open(":memory:"), kT0);
  Node sub(KeyedNet::config(2, k.member(false)), cache::Store::open(":memory:"), kT0);
  sub.subscribe("ops", {}, kT0);
  rogue.publish(request("ops", bytes_of(500, 1)), kT0);
  relay(rogue, {&sub}, kT0);
  ASSERT_EQ(deliveries(sub).size(), 1u);

  SecurityConfig revoking = k.member(false);
  revoking.revoked_publishers.insert(7);
  sub.set_security(revoking, kT0 + kSeconds);
  const Micros now = kT0 + 2 * kSeconds;
  rogue.publish(request("ops", bytes_of(500, 2)), now);
  good.publish(request("ops", bytes_of(500, 3)), now);
  relay(rogue, {&sub}, now);
  relay(good, {&sub}, now);
  const auto got = deliveries(sub);
  ASSERT_EQ(got.size(), 1u) << "the other publisher's message only";
  EXPECT_EQ(got[0].meta.id.publisher, 1u);
  EXPECT_GT(integrity(sub, IntegrityEvent::Revoked), 0u);
  EXPECT_TRUE(sub.get(MessageId{"ops", 7, 1}, now)) << "held before the revocation: kept";
  EXPECT_FALSE(sub.get(MessageId{"ops", 7, 2}, now));
  // Nothing of the revoked stream is asked for.
  for (int i = 0; i < 20; ++i) sub.on_timer(now + i * 100 * kMillis);
  EXPECT_EQ(sub.incomplete_wanted(), 0u);
}

TEST(KeyRevocation, AChangeThatNeedsARestartOrLeavesNoKeyIsRefusedWhole) {
  KeyedNet k;
  Node n(KeyedNet::config(1, k.member(true)), cache::Store::open(":memory:"), kT0);
  SecurityConfig no_network = k.member(true);
  no_network.network.clear();
  EXPECT_THROW(n.set_security(no_network, kT0), ConfigError);
  SecurityConfig all_revoked = k.member(true);
  all_revoked.revoked_epochs.insert(1);
  try {
    n.set_security(all_revoked, kT0);
    FAIL() << "every epoch revoked";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("every epoch of the network key is revoked"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(n.config().security.revoked_epochs.empty()) << "the running keys stay";
  Node open(fast_config(2), cache::Store::open(":memory:"), kT0);
  EXPECT_THROW(open.set_security(k.member(false), kT0), ConfigError) << "an open node cannot become keyed";
}

TEST(LiveConfig, ReconfigureTakesOnlyTheKeysARunningNodeReadsAtEachUse) {
  Node n(fast_config(1), cache::Store::open(":memory:"), kT0);
  EngineConfig next = n.config();
  next.request_probability = 0.3;
  next.max_clock_skew = 5 * kSeconds;
  next.payload_size = 200;
  const auto changed = n.reconfigure(next);
  EXPECT_EQ(changed, (std::vector<std::string>{"max_clock_skew_ms", "request_probability"})) << "in the key table's order";
  EXPECT_DOUBLE_EQ(n.config().request_probability, 0.3);
  EXPECT_EQ(n.config().max_clock_skew, 5 * kSeconds);
  EXPECT_NE(n.config().payload_size, 200u) << "derived into state at start-up: left for a restart";
  EXPECT_TRUE(live_config_key("cache_full"));
  EXPECT_FALSE(live_config_key("payload_size"));
}

}  // namespace key_revocation_test
