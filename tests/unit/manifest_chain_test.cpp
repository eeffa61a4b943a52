// The manifest chain (engine/security/manifest_chain.h): each signed manifest of a
// keyed group links to its predecessor, so a receiver handed a burst
// (Node::on_datagrams) checks one signature for the burst, and repairs of
// older messages are vouched for by the newer ones already verified. A
// forged or spoiled manifest never rides on the chain: it is checked on its
// own signature, refused and counted once.
#include <gtest/gtest.h>
#include <sodium.h>

#include <algorithm>

#include "engine/security/datagram_auth.h"
#include "engine/fragmenter.h"
#include "engine/security/manifest_chain.h"
#include "engine/security/message_signature.h"
#include "engine/node.h"
#include "sim/simulation.h"
#include "support/air_reader.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace manifest_chain_test {
namespace {


struct Keys {
  SymmetricKey net{};
  VerifyKey pk{};
  SigningKey sk{};
  Keys() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium");
    randombytes_buf(net.data(), net.size());
    crypto_sign_keypair(pk.data(), sk.data());
  }
  EngineConfig config(NodeId id, bool can_sign) const {
    EngineConfig c = fast_config(id);
    c.security.network[1] = net;
    c.security.groups["ops"].verify[1] = pk;
    if (can_sign) c.security.groups["ops"].sign[1] = sk;
    return c;
  }
};

MessageMeta meta(std::uint64_t seq) {
  MessageMeta m;
  m.id = MessageId{"ops", 7, seq};
  m.total_length = 100;
  m.digest = 0x1234 + seq;
  m.key_epoch = 1;
  return m;
}

// A publisher's first passes of `count` one-fragment messages in "ops",
// each datagram a message, oldest first.
std::vector<std::vector<std::uint8_t>> publish_small(Node& pub, int count) {
  for (int i = 0; i < count; ++i) pub.publish(request("ops", bytes_of(200, static_cast<std::uint8_t>(i))), kT0);
  auto out = only_data(drain(pub, kT0));
  if (out.size() != static_cast<std::size_t>(count)) throw std::runtime_error("expected one datagram per message");
  return out;
}

// The i-th of `sealed` (in the order sent, so the group references the
// others announce are known), opened and decoded.
wire::DataFragment fragment_of(const std::vector<std::vector<std::uint8_t>>& sealed, std::size_t i,
                               const SymmetricKey& net) {
  std::vector<std::vector<std::uint8_t>> frames;
  for (const auto& s : sealed) {
    const auto opened = open_datagram(s, {{1, net}});
    if (!opened) throw std::runtime_error("does not open");
    frames.emplace_back(opened->frame.begin(), opened->frame.end());
  }
  wire::Decoded d;
  AirReader air;
  if (air.decode_among(frames, i, d) || d.kind != wire::Kind::Data) throw std::runtime_error("not a fragment");
  return d.data;
}

// A member holding the network key (not the group's signing key) resends
// `f` under its own trailer.
std::vector<std::uint8_t> reseal(const wire::DataFragment& f, const SymmetricKey& net, std::uint64_t counter) {
  auto d = wire::encode(f);
  seal_datagram(d, net, 1, 9, counter);
  return d;
}

std::vector<std::span<const std::uint8_t>> spans(const std::vector<std::vector<std::uint8_t>>& v) {
  return {v.begin(), v.end()};
}

std::size_t delivered(Node& n) {
  std::size_t count = 0;
  while (n.poll_delivery()) ++count;
  return count;
}

std::size_t bad_signatures(const Node& n) {
  return n.stats().integrity[static_cast<std::size_t>(IntegrityEvent::BadSignature)];
}

}  // namespace

TEST(ManifestChain, AnAuthenticManifestVouchesForItselfAndItsPredecessorOnly) {
  ManifestChain chain(100);
  MessageMeta m5 = meta(5);
  m5.signature = std::string(64, 's');
  m5.chain = link_bytes(manifest_link(meta(4)));
  const ChainLink l5 = manifest_link(m5);
  EXPECT_FALSE(chain.vouched(m5.id, l5));
  chain.learn(m5, l5);
  EXPECT_TRUE(chain.vouched(m5.id, l5));
  EXPECT_TRUE(chain.vouched(meta(4).id, manifest_link(meta(4))));
  MessageMeta other4 = meta(4);
  other4.priority = 9;
  EXPECT_FALSE(chain.vouched(other4.id, manifest_link(other4))) << "another manifest under the same id";
  EXPECT_FALSE(chain.vouched(meta(3).id, manifest_link(meta(3)))) << "two steps back needs 4's own link";
  EXPECT_EQ(chain.size(), 2u);
}

TEST(ManifestChain, TheLinkCoversEveryManifestFieldAndTheSignature) {
  MessageMeta m = meta(5);
  m.signature = std::string(64, 's');
  const ChainLink base = manifest_link(m);
  MessageMeta t = m;
  t.signature[3] ^= 1;
  EXPECT_NE(manifest_link(t), base) << "a spoiled signature breaks the link";
  t = m;
  t.chain = std::string(16, 'c');
  EXPECT_NE(manifest_link(t), base);
  t = m;
  t.tag = "x";
  EXPECT_NE(manifest_link(t), base);
  const Keys keys;
  MessageMeta chained = meta(6);
  chained.chain = link_bytes(base);
  chained.signature = sign_manifest(chained, keys.sk);
  EXPECT_TRUE(verify_manifest(chained, keys.pk));
  chained.chain[0] ^= 1;
  EXPECT_FALSE(verify_manifest(chained, keys.pk)) << "the link is signed";
}

TEST(ManifestChain, MemoryIsBoundedOldestFirst) {
  ManifestChain chain(10);
  for (std::uint64_t seq = 1; seq <= 30; ++seq) chain.learn(meta(seq), manifest_link(meta(seq)));
  EXPECT_EQ(chain.size(), 10u);
  EXPECT_FALSE(chain.vouched(meta(1).id, manifest_link(meta(1))));
  EXPECT_TRUE(chain.vouched(meta(30).id, manifest_link(meta(30))));
}

TEST(ManifestChain, EachPublicationLinksToThePreviousOneOfItsGroup) {
  const Keys keys;
  Node pub(keys.config(1, true), cache::Store::open(":memory:"), kT0);
  const auto sent = publish_small(pub, 3);
  std::vector<wire::DataFragment> f;
  for (std::size_t i = 0; i < sent.size(); ++i) f.push_back(fragment_of(sent, i, keys.net));
  EXPECT_TRUE(f[0].chain().empty()) << "the first message of this run has nothing to link to";
  for (std::size_t i = 1; i < f.size(); ++i) {
    ASSERT_EQ(f[i].chain().size(), kChainLinkBytes);
    EXPECT_EQ(f[i].chain(), link_bytes(manifest_link(meta_of(f[i - 1], 0)))) << "message " << i + 1;
  }
}

TEST(ManifestChain, ABurstCostsOneSignatureCheckAndOneByOneCostsOneEach) {
  const Keys keys;
  Node pub(keys.config(1, true), cache::Store::open(":memory:"), kT0);
  const auto sent = publish_small(pub, 20);
  Node burst(keys.config(2, false), cache::Store::open(":memory:"), kT0);
  Node single(keys.config(3, false), cache::Store::open(":memory:"), kT0);
  burst.subscribe("ops", {}, kT0);
  single.subscribe("ops", {}, kT0);
  burst.on_datagrams(spans(sent), kT0);
  for (const auto& d : sent) single.on_datagram(d, kT0);
  EXPECT_EQ(delivered(burst), 20u);
  EXPECT_EQ(delivered(single), 20u);
  EXPECT_EQ(burst.stats().signatures_checked, 1u) << "the newest, which vouches for the other 19";
  EXPECT_EQ(burst.stats().signatures_vouched, 19u);
  EXPECT_EQ(single.stats().signatures_checked, 20u) << "each arrives before its successor";
  EXPECT_EQ(bad_signatures(burst) + bad_signatures(single), 0u);
}

TEST(ManifestChain, RepairsOfOlderMessagesAreVouchedForByTheNewestVerified) {
  const Keys keys;
  Node pub(keys.config(1, true), cache::Store::open(":memory:"), kT0);
  const auto sent = publish_small(pub, 10);
  Node sub(keys.config(2, false), cache::Store::open(":memory:"), kT0);
  sub.subscribe("ops", {}, kT0);
  // The first message (which names the group: the later ones use its
  // reference), then the rest newest first, one by one.
  sub.on_datagram(sent.front(), kT0);
  for (auto it = sent.rbegin(); it + 1 != sent.rend(); ++it) sub.on_datagram(*it, kT0);
  EXPECT_EQ(delivered(sub), 10u);
  EXPECT_EQ(sub.stats().signatures_checked, 2u) << "the first and the newest";
  EXPECT_EQ(sub.stats().signatures_vouched, 8u);
}

TEST(ManifestChain, AForgedManifestInABurstIsCheckedOnItsOwnRefusedAndCountedOnce) {
  const Keys keys;
  Node pub(keys.config(1, true), cache::Store::open(":memory:"), kT0);
  const auto sent = publish_small(pub, 10);
  Node sub(keys.config(2, false), cache::Store::open(":memory:"), kT0);
  sub.subscribe("ops", {}, kT0);
  // Message 5 with a manifest field changed (its signature kept), sent
  // twice; message 8 with its signature spoiled; both ahead of the real
  // ones, in one burst with everything else but the real 5 and 8.
  wire::DataFragment forged = fragment_of(sent, 4, keys.net);
  forged.set_priority(forged.priority() + 1);
  wire::DataFragment spoiled = fragment_of(sent, 7, keys.net);
  std::string signature = spoiled.signature();
  signature[0] = static_cast<char>(signature[0] ^ 1);
  spoiled.set_signature(signature);
  std::vector<std::vector<std::uint8_t>> burst{reseal(forged, keys.net, 100), reseal(forged, keys.net, 101),
                                               reseal(spoiled, keys.net, 102)};
  for (std::size_t i = 0; i < sent.size(); ++i)
    if (i != 4 && i != 7) burst.push_back(sent[i]);
  sub.on_datagrams(spans(burst), kT0);
  EXPECT_EQ(delivered(sub), 8u);
  EXPECT_EQ(bad_signatures(sub), 3u) << "each forged datagram refused and counted (the forged manifest once checked)";
  // Checked: the newest real one (10), the spoiled 8 and the forged 5, and
  // 7 and 4, whose successors in the burst were not the real ones.
  EXPECT_EQ(sub.stats().signatures_checked, 5u);
  // The real messages 5 and 8 then arrive, vouched for by 6 and 9.
  sub.on_datagrams(spans({sent[4], sent[7]}), kT0);
  EXPECT_EQ(delivered(sub), 2u);
  EXPECT_EQ(sub.stats().signatures_checked, 5u);
  EXPECT_EQ(bad_signatures(sub), 3u);
}

TEST(ManifestChain, ABurstAcrossPublishersAndGroupsChecksEachStreamsNewest) {
  const Keys keys;
  EngineConfig c1 = keys.config(1, true), c4 = keys.config(4, true);
  Node pub1(c1, cache::Store::open(":memory:"), kT0);
  Node pub4(c4, cache::Store::open(":memory:"), kT0);
  auto a = publish_small(pub1, 6);
  const auto b = publish_small(pub4, 6);
  Node sub(keys.config(2, false), cache::Store::open(":memory:"), kT0);
  sub.subscribe("ops", {}, kT0);
  std::vector<std::vector<std::uint8_t>> mixed;
  for (std::size_t i = 0; i < a.size(); ++i) {
    mixed.push_back(a[i]);
    mixed.push_back(b[i]);
  }
  sub.on_datagrams(spans(mixed), kT0);
  EXPECT_EQ(delivered(sub), 12u);
  EXPECT_EQ(sub.stats().signatures_checked, 2u);
  EXPECT_EQ(sub.stats().signatures_vouched, 10u);
}

}  // namespace manifest_chain_test
