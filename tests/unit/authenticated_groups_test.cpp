// Authenticated groups (engine/security/security_config.h): the datagram trailer and
// replay guard, manifest signatures, sealed payloads, and nodes using them:
// outsiders and replays are refused and counted, forged messages of keyed
// groups never reach an application, sealed groups are readable only with
// the key, and old and new key epochs overlap during a rotation.
#include <gtest/gtest.h>
#include <sodium.h>

#include "engine/security/datagram_auth.h"
#include "engine/security/message_signature.h"
#include "engine/node.h"
#include "engine/security/payload_seal.h"
#include "sim/simulation.h"
#include "support/keyed_net.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "wire/message_digest.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace authenticated_groups_test {
namespace {


MessageMeta sample_meta() {
  MessageMeta m;
  m.id = MessageId{"ops", 7, 42};
  m.total_length = 1000;
  m.priority = 3;
  m.expiry_ms = 0;
  m.tag = "position";
  m.digest = 0x1234;
  m.key_epoch = 1;
  return m;
}

}  // namespace

TEST(DatagramAuth, ASealedDatagramOpensOnlyIntactAndUnderItsEpochsKey) {
  const SymmetricKey k1 = random_key(), k2 = random_key();
  std::vector<std::uint8_t> d{1, 2, 3, 4, 5};
  seal_datagram(d, k2, 2, 77, 1000);
  ASSERT_EQ(d.size(), 5 + kAuthTrailerBytes);
  const auto opened = open_datagram(d, {{1, k1}, {2, k2}});
  ASSERT_TRUE(opened) << "the epoch picks the key: both epochs are accepted";
  EXPECT_EQ(std::vector<std::uint8_t>(opened->frame.begin(), opened->frame.end()), (std::vector<std::uint8_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(opened->sender, 77u);
  EXPECT_EQ(opened->counter, 1000u);
  EXPECT_FALSE(open_datagram(d, {{1, k1}})) << "an epoch this node does not hold";
  EXPECT_FALSE(open_datagram(d, {{2, k1}})) << "the wrong key";
  for (std::size_t i = 0; i < d.size(); ++i) {
    auto t = d;
    t[i] ^= 0x01;
    EXPECT_FALSE(open_datagram(t, {{1, k1}, {2, k2}})) << "byte " << i << " altered";
  }
  EXPECT_FALSE(open_datagram(std::span(d).first(kAuthTrailerBytes), {{2, k2}})) << "too short";
}

TEST(ReplayGuard, EachCounterIsTakenOnceAndOldOnesNever) {
  ReplayGuard g(2, 1000);
  EXPECT_TRUE(g.accept(1, 5000));
  EXPECT_FALSE(g.accept(1, 5000)) << "a replay";
  EXPECT_TRUE(g.accept(1, 5200));
  EXPECT_TRUE(g.accept(1, 5100)) << "reordered within the window";
  EXPECT_FALSE(g.accept(1, 5100)) << "... once";
  EXPECT_FALSE(g.accept(1, 4100)) << "older than the window";
  EXPECT_TRUE(g.accept(2, 10));
  EXPECT_TRUE(g.accept(3, 10)) << "a third sender displaces the one heard from longest ago";
  EXPECT_EQ(g.senders(), 2u);
}

TEST(MessageSignature, EveryManifestFieldIsSigned) {
  const GroupKeyPair keys;
  MessageMeta m = sample_meta();
  m.signature = sign_manifest(m, keys.sk);
  EXPECT_EQ(m.signature.size(), 64u);
  EXPECT_TRUE(verify_manifest(m, keys.pk));
  const std::vector<std::function<void(MessageMeta&)>> changes = {
      [](MessageMeta& x) { x.id.group = "opt"; },   [](MessageMeta& x) { x.id.publisher = 8; },
      [](MessageMeta& x) { x.id.seq = 43; },        [](MessageMeta& x) { x.total_length = 999; },
      [](MessageMeta& x) { x.priority = 4; },       [](MessageMeta& x) { x.expiry_ms = 1; },
      [](MessageMeta& x) { x.history_window = 1; }, [](MessageMeta& x) { x.tag = "positions"; },
      [](MessageMeta& x) { x.digest = 0x1235; },    [](MessageMeta& x) { x.key_epoch = 2; },
      [](MessageMeta& x) { x.signature[10] ^= 1; }, [](MessageMeta& x) { x.chain = std::string(16, 'l'); }};
  for (std::size_t i = 0; i < changes.size(); ++i) {
    MessageMeta t = m;
    changes[i](t);
    EXPECT_FALSE(verify_manifest(t, keys.pk)) << "change " << i;
  }
  EXPECT_FALSE(verify_manifest(m, GroupKeyPair().pk)) << "another group's key";
}

TEST(PayloadSeal, OpensWithTheKeyForTheSameMessageOnly) {
  const SymmetricKey k = random_key();
  const MessageId id{"ops", 7, 42};
  const std::vector<std::uint8_t> clear = bytes_of(500, 3);
  const auto sealed = seal_payload(clear, id, k, 1, {});
  EXPECT_EQ(sealed.size(), clear.size() + kSealOverhead);
  EXPECT_EQ(open_payload(sealed, id, {{1, k}}), clear);
  EXPECT_FALSE(open_payload(sealed, MessageId{"ops", 7, 43}, {{1, k}})) << "bound to its message id";
  EXPECT_FALSE(open_payload(sealed, id, {{1, random_key()}}));
  EXPECT_FALSE(open_payload(sealed, id, {{2, k}})) << "an epoch not held";
  auto t = sealed;
  t.back() ^= 1;
  EXPECT_FALSE(open_payload(t, id, {{1, k}}));
}

TEST(AuthenticatedGroups, MembersExchangeSignedSealedMessagesAndOutsidersAreRefused) {
  KeyedNet k;
  Node pub(KeyedNet::config(1, k.member(true)), cache::Store::open(":memory:"), kT0);
  Node sub(KeyedNet::config(2, k.member(false)), cache::Store::open(":memory:"), kT0);
  Node outsider(fast_config(3), cache::Store::open(":memory:"), kT0);  // no keys at all
  sub.subscribe("ops", {}, kT0);
  const auto clear = bytes_of(3000, 9);
  pub.publish(request("ops", clear), kT0);
  const auto sent = relay(pub, {&sub}, kT0);
  auto got = deliveries(sub);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].payload, clear) << "a member with the seal key reads the clear payload";
  for (const auto& d : sent) {
    const std::string air(d.begin(), d.end());
    EXPECT_EQ(air.find(std::string(clear.begin(), clear.begin() + 64)), std::string::npos) << "sealed on the air";
  }
  // An outsider's datagrams, however well formed, are refused and counted.
  outsider.publish(request("ops", bytes_of(100, 1)), kT0);
  relay(outsider, {&sub}, kT0);
  EXPECT_TRUE(deliveries(sub).empty());
  EXPECT_GT(integrity(sub, IntegrityEvent::Unauthenticated), 0u);
  // A replay of the publisher's own datagrams changes nothing.
  const auto before = sub.stats().duplicate_fragments;
  for (const auto& d : sent) sub.on_datagram(d, kT0 + kSeconds);
  EXPECT_EQ(integrity(sub, IntegrityEvent::Replayed), sent.size());
  EXPECT_EQ(sub.stats().duplicate_fragments, before) << "refused before decoding";
}

TEST(AuthenticatedGroups, AMemberWithoutTheGroupKeyCannotPublishOrForgeInIt) {
  KeyedNet k;
  Node sub(KeyedNet::config(2, k.member(false)), cache::Store::open(":memory:"), kT0);
  sub.subscribe("ops", {}, kT0);
  EXPECT_THROW(sub.publish(request("ops", bytes_of(10, 1)), kT0), PublishError);
  // A member (network key) that holds no signing key forges a whole message
  // under the real publisher's id, with a correct digest and a made-up
  // signature, and sends it unsigned too: neither is taken.
  SecurityConfig net_only;
  net_only.network[1] = k.net;
  Node forger(KeyedNet::config(9, net_only), cache::Store::open(":memory:"), kT0);
  const auto payload = bytes_of(800, 5);
  for (const bool with_signature : {true, false}) {
    wire::DataFragment f;
    f.set_group("ops");
    f.set_publisher(1);
    f.set_seq(with_signature ? 1 : 2);
    f.set_offset(0);
    f.set_total_length(800);
    f.set_digest(wire::message_digest(payload));
    f.set_payload(std::string(payload.begin(), payload.end()));
    if (with_signature) {
      f.set_signature(std::string(64, 'x'));
      f.set_key_epoch(1);
    }
    auto d = wire::encode(f);
    seal_datagram(d, k.net, 1, 9, static_cast<std::uint64_t>(kT0) + (with_signature ? 1 : 2));
    sub.on_datagram(d, kT0);
  }
  EXPECT_TRUE(deliveries(sub).empty());
  EXPECT_EQ(integrity(sub, IntegrityEvent::BadSignature), 1u);
  EXPECT_EQ(integrity(sub, IntegrityEvent::Unsigned), 1u);
  EXPECT_EQ(sub.incomplete_wanted(), 0u) << "nothing of either was admitted";
}

TEST(AuthenticatedGroups, ARelayWithoutTheSealKeyVerifiesCachesAndServesButCannotRead) {
  KeyedNet k;
  Node pub(KeyedNet::config(1, k.member(true)), cache::Store::open(":memory:"), kT0);
  Node relay_node(KeyedNet::config(2, k.member(false, false)), cache::Store::open(":memory:"), kT0);
  relay_node.subscribe("ops", {}, kT0);
  const auto clear = bytes_of(2000, 4);
  pub.publish(request("ops", clear), kT0);
  relay(pub, {&relay_node}, kT0);
  auto got = deliveries(relay_node);
  ASSERT_EQ(got.size(), 1u) << "verified and complete at the relay";
  EXPECT_EQ(got[0].payload.size(), clear.size() + kSealOverhead) << "sealed bytes: the relay cannot read them";
  EXPECT_NE(got[0].payload, clear);
  // A late subscriber with the key gets it from the relay alone.
  Node late(KeyedNet::config(3, k.member(false)), cache::Store::open(":memory:"), kT0);
  SubscriptionOptions one_back;
  one_back.history = 1;
  late.subscribe("ops", one_back, kT0);
  Micros now = kT0 + kSeconds;
  for (int i = 0; i < 40 && deliveries(late).empty() && late.stats().deliveries == 0; ++i) {
    late.on_timer(now);
    relay(late, {&relay_node}, now);
    relay_node.on_timer(now);
    relay(relay_node, {&late}, now);
    now += 100 * kMillis;
  }
  EXPECT_EQ(late.stats().deliveries, 1u) << "served, signed, by a node that cannot read it";
  EXPECT_EQ(integrity(late, IntegrityEvent::BadSignature) + integrity(late, IntegrityEvent::Unsigned), 0u);
}

TEST(AuthenticatedGroups, OldAndNewKeyEpochsOverlapDuringARotation) {
  KeyedNet k;
  const GroupKeyPair next;
  const SymmetricKey next_net = random_key();
  SecurityConfig rotated = k.member(true);
  rotated.network[2] = next_net;
  rotated.groups["ops"].verify[2] = next.pk;
  rotated.groups["ops"].sign[2] = next.sk;
  Node pub(KeyedNet::config(1, rotated), cache::Store::open(":memory:"), kT0);  // sends with epoch 2
  SecurityConfig both = k.member(false);
  both.network[2] = next_net;
  both.groups["ops"].verify[2] = next.pk;
  Node updated(KeyedNet::config(2, both), cache::Store::open(":memory:"), kT0);
  Node stale(KeyedNet::config(3, k.member(false)), cache::Store::open(":memory:"), kT0);  // epoch 1 only
  updated.subscribe("ops", {}, kT0);
  stale.subscribe("ops", {}, kT0);
  pub.publish(request("ops", bytes_of(500, 2)), kT0);
  relay(pub, {&updated, &stale}, kT0);
  EXPECT_EQ(deliveries(updated).size(), 1u) << "a node holding both epochs takes the new one";
  EXPECT_TRUE(deliveries(stale).empty()) << "a node that never got the new key cannot";
  EXPECT_GT(integrity(stale, IntegrityEvent::Unauthenticated), 0u);
}

TEST(AuthenticatedGroups, ANewEpochIsOnlyAcceptedUntilItsTimeComesThenEveryoneSwitches) {
  // The rotation without an outage: epoch 2 reaches the publisher first, due
  // an hour from now; until then it keeps sending, signing and sealing with
  // epoch 1, which a node not yet updated still takes.
  KeyedNet k;
  const GroupKeyPair next;
  const SymmetricKey next_net = random_key(), next_seal = random_key();
  SecurityConfig rotated = k.member(true);
  rotated.network[2] = next_net;
  rotated.groups["ops"].verify[2] = next.pk;
  rotated.groups["ops"].sign[2] = next.sk;
  rotated.groups["ops"].seal[2] = next_seal;
  const std::uint64_t switch_s = to_unix_seconds(kT0) + 3600;
  rotated.send_from[2] = switch_s;
  Node pub(KeyedNet::config(1, rotated), cache::Store::open(":memory:"), kT0);
  Node stale(KeyedNet::config(3, k.member(false)), cache::Store::open(":memory:"), kT0);  // epoch 1 only
  stale.subscribe("ops", {}, kT0);
  pub.publish(request("ops", bytes_of(500, 2)), kT0);
  relay(pub, {&stale}, kT0);
  ASSERT_EQ(deliveries(stale).size(), 1u) << "before its time the new epoch is not used";
  // After the switch time: epoch 2 on the air; the stale node cannot follow.
  const Micros later = static_cast<Micros>(switch_s + 1) * kSeconds;
  pub.publish(request("ops", bytes_of(500, 3)), later);
  relay(pub, {&stale}, later);
  EXPECT_TRUE(deliveries(stale).empty());
  EXPECT_GT(integrity(stale, IntegrityEvent::Unauthenticated), 0u);
}

}  // namespace authenticated_groups_test
