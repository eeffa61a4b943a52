// The NORM gateway's bridging rules (tools/norm_gateway/bridge_policy.h) and
// the origin metadata they rely on (bridge_origin.h), without NORM or a
// daemon: nothing goes back where it came from, however many gateways, and
// several gateways bridge a message about once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/norm_gateway/bridge_origin.h"
#include "tools/norm_gateway/bridge_policy.h"

using namespace dissem;
using namespace dissem::norm_gateway;

namespace norm_gateway_bridge_test {
namespace {

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

MessageMeta dissem_meta(NodeId publisher, std::uint64_t seq, std::string tag = {}) {
  MessageMeta m;
  m.id = MessageId{"news", publisher, seq};
  m.tag = std::move(tag);
  return m;
}

BridgeSettings settings(Micros holdoff = 0) {
  BridgeSettings s;
  s.holdoff = holdoff;
  return s;
}

}  // namespace

TEST(NormGatewayOrigin, InfoRoundTripsAndRefusesForeignOrDamagedBytes) {
  const DisseminationInfo info{"field-net", MessageId{"news", 0xdeadbeef, 1234567890123ull}, "norm/other/5/x"};
  const auto encoded = encode_info(info);
  auto back = decode_info(encoded);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->domain, "field-net");
  EXPECT_EQ(back->id, info.id);
  EXPECT_EQ(back->tag, info.tag);
  // Any other sender's info, and every truncation or extension of ours.
  EXPECT_FALSE(decode_info(bytes("hello world")));
  EXPECT_FALSE(decode_info({}));
  for (std::size_t n = 0; n < encoded.size(); ++n) {
    EXPECT_FALSE(decode_info(std::span(encoded).first(n))) << n;
  }
  auto longer = encoded;
  longer.push_back(0);
  EXPECT_FALSE(decode_info(longer));
  auto bad_domain = encode_info({"bad domain", info.id, ""});
  EXPECT_FALSE(decode_info(bad_domain));
}

TEST(NormGatewayOrigin, TagNamesTheSameObjectAlikeAndParsesBack) {
  const auto a = norm_origin_of("ops", 42, bytes("info"), bytes("data"));
  const auto b = norm_origin_of("ops", 42, bytes("info"), bytes("data"));
  const auto moved = norm_origin_of("ops", 42, bytes("infod"), bytes("ata"));
  EXPECT_EQ(tag_of(a), tag_of(b));
  EXPECT_NE(tag_of(a), tag_of(moved));
  EXPECT_NE(tag_of(a), tag_of(norm_origin_of("ops", 43, bytes("info"), bytes("data"))));
  auto parsed = parse_tag(tag_of(a));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->domain, "ops");
  EXPECT_EQ(parsed->sender, 42u);
  EXPECT_EQ(parsed->digest_hex.size(), 32u);
  for (const char* t : {"", "norm/", "norm/ops", "norm/ops/42", "norm/ops/x/0123456789abcdef0123456789abcdef",
                        "norm/ops/42/0123", "nrm/ops/42/0123456789abcdef0123456789abcdef",
                        "norm/o p/42/0123456789abcdef0123456789abcdef", "norm/ops/42/0123456789ABCDEF0123456789abcdef",
                        "norm/ops/99999999999/0123456789abcdef0123456789abcdef"}) {
    EXPECT_FALSE(parse_tag(t)) << t;
  }
}

TEST(NormGatewayOrigin, DomainNamesAreChecked) {
  EXPECT_EQ(domain_problem("norm-1.a_b"), "");
  EXPECT_NE(domain_problem(""), "");
  EXPECT_NE(domain_problem("has/slash"), "");
  EXPECT_NE(domain_problem(std::string(33, 'a')), "");
}

TEST(NormGatewayBridge, NormObjectsArePublishedWithTheirOriginAndNeverComeBack) {
  BridgePolicy p(settings(), 1);
  p.norm_object(0, 7, bytes("i"), bytes("payload"));
  auto out = p.take_due_dissem(0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].payload, bytes("payload"));
  EXPECT_EQ(out[0].tag, tag_of(norm_origin_of("norm", 7, bytes("i"), bytes("payload"))));
  p.set_own_publisher(11);
  // Our own publication comes back from dissemd: it must not go to NORM.
  EXPECT_FALSE(p.dissem_delivery(10, dissem_meta(11, 1, out[0].tag), bytes("payload")));
  // Nor another gateway's publication of a NORM object of our domain.
  EXPECT_FALSE(p.dissem_delivery(10, dissem_meta(12, 1, out[0].tag), bytes("payload")));
  EXPECT_TRUE(p.take_due_norm(1000).empty());
  EXPECT_EQ(p.counters().loops_prevented, 2u);
  EXPECT_EQ(p.counters().to_dissem, 1u);
  EXPECT_EQ(p.counters().to_norm, 0u);
}

TEST(NormGatewayBridge, DissemMessagesGoToNormOnceAndNeverComeBack) {
  BridgePolicy p(settings(), 1);
  EXPECT_TRUE(p.dissem_delivery(0, dissem_meta(5, 9, "user-tag"), bytes("hello")));
  // A durable subscription redelivers after a reconnect: not sent twice.
  EXPECT_FALSE(p.dissem_delivery(5, dissem_meta(5, 9, "user-tag"), bytes("hello")));
  auto out = p.take_due_norm(0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, bytes("hello"));
  auto info = decode_info(out[0].info);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->domain, "dissem");
  EXPECT_EQ(info->id, (MessageId{"news", 5, 9}));
  EXPECT_EQ(info->tag, "user-tag");
  // The object as another gateway (or this one) hears it on NORM: never back into dissem.
  p.norm_object(10, 77, out[0].info, out[0].data);
  EXPECT_TRUE(p.take_due_dissem(1000).empty());
  EXPECT_EQ(p.counters().loops_prevented, 1u);
  EXPECT_EQ(p.counters().duplicates_suppressed, 1u);
}

TEST(NormGatewayBridge, ANormObjectFromAnotherDissemNetworkIsBridged) {
  BridgePolicy p(settings(), 1);
  const auto info = encode_info({"other-net", MessageId{"news", 1, 1}, ""});
  p.norm_object(0, 3, info, bytes("x"));
  EXPECT_EQ(p.take_due_dissem(0).size(), 1u);
}

TEST(NormGatewayBridge, AnotherGatewaysCopyDuringTheHoldoffSuppressesOurs) {
  BridgePolicy p(settings(500 * kMillis), 3);
  p.set_own_publisher(11);
  // NORM -> dissem: the other gateway (node 12) publishes first.
  p.norm_object(0, 7, bytes("i"), bytes("data"));
  const std::string tag = tag_of(norm_origin_of("norm", 7, bytes("i"), bytes("data")));
  EXPECT_FALSE(p.dissem_delivery(1, dissem_meta(12, 4, tag), bytes("data")));
  EXPECT_TRUE(p.take_due_dissem(10 * kSeconds).empty());
  // dissem -> NORM: the other gateway's object info shows up first.
  EXPECT_TRUE(p.dissem_delivery(0, dissem_meta(5, 1), bytes("m")));
  p.norm_info(2, encode_info({"dissem", MessageId{"news", 5, 1}, ""}));
  EXPECT_TRUE(p.take_due_norm(10 * kSeconds).empty());
  EXPECT_EQ(p.counters().duplicates_suppressed, 2u);
  // If our NORM copy of an object completes after the other gateway's
  // dissem copy was delivered, within the window, it is not published either.
  EXPECT_FALSE(p.dissem_delivery(20 * kSeconds, dissem_meta(12, 5, tag_of(norm_origin_of("norm", 8, {}, bytes("late")))),
                                 bytes("late")));
  p.norm_object(21 * kSeconds, 8, {}, bytes("late"));
  EXPECT_TRUE(p.take_due_dissem(30 * kSeconds).empty());
  EXPECT_EQ(p.counters().duplicates_suppressed, 3u);
  // Identical content sent again long after: bridged again.
  p.norm_object(200 * kSeconds, 8, {}, bytes("late"));
  EXPECT_EQ(p.take_due_dissem(201 * kSeconds).size(), 1u);
}

TEST(NormGatewayBridge, HoldoffDelaysWithinItsBoundAndDeadlinesSayWhen) {
  BridgePolicy p(settings(200 * kMillis), 9);
  for (int i = 0; i < 50; ++i) p.norm_object(0, 1, {}, bytes(std::to_string(i)));
  ASSERT_TRUE(p.next_deadline());
  EXPECT_LE(*p.next_deadline(), 200 * kMillis);
  std::size_t got = p.take_due_dissem(0).size();
  EXPECT_LT(got, 50u);  // 50 uniform draws in [0, 200 ms] are not all 0
  got += p.take_due_dissem(200 * kMillis).size();
  EXPECT_EQ(got, 50u);
  EXPECT_FALSE(p.next_deadline());
}

TEST(NormGatewayBridge, DirectionsTooLargeAndRetries) {
  BridgeSettings s = settings();
  s.norm_to_dissem = false;
  s.max_message_bytes = 4;
  BridgePolicy p(s, 1);
  p.norm_object(0, 1, {}, bytes("ab"));
  EXPECT_TRUE(p.take_due_dissem(0).empty());
  EXPECT_EQ(p.counters().not_bridged, 1u);
  EXPECT_FALSE(p.dissem_delivery(0, dissem_meta(1, 1), bytes("too long")));
  EXPECT_EQ(p.counters().too_large, 1u);
  EXPECT_TRUE(p.dissem_delivery(0, dissem_meta(1, 2), bytes("ok")));
  auto out = p.take_due_norm(0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(p.counters().to_norm, 1u);
  p.retry_norm(std::move(out[0]), 50);
  EXPECT_EQ(p.counters().to_norm, 0u);
  EXPECT_TRUE(p.take_due_norm(49).empty());
  EXPECT_EQ(p.take_due_norm(50).size(), 1u);
  EXPECT_EQ(p.counters().to_norm, 1u);
}

TEST(NormGatewayBridge, MemoryIsBounded) {
  BridgeSettings s = settings();
  s.memory = 16;
  BridgePolicy p(s, 1);
  for (std::uint64_t seq = 1; seq <= 100; ++seq) EXPECT_TRUE(p.dissem_delivery(0, dissem_meta(1, seq), bytes("x")));
  EXPECT_EQ(p.take_due_norm(0).size(), 100u);
  // The oldest are forgotten: a redelivery of seq 1 now goes again, seq 100 does not.
  EXPECT_TRUE(p.dissem_delivery(1, dissem_meta(1, 1), bytes("x")));
  EXPECT_FALSE(p.dissem_delivery(1, dissem_meta(1, 100), bytes("x")));
}

TEST(NormGatewayBridge, ACopyStillArrivingInDissemSuppressesOursButOurOwnDoesNot) {
  BridgePolicy p(settings(kSeconds), 5);
  p.set_own_publisher(11);
  p.norm_object(0, 7, {}, bytes("obj"));
  const std::string tag = tag_of(norm_origin_of("norm", 7, {}, bytes("obj")));
  EXPECT_TRUE(p.dissem_due(kSeconds));
  p.dissem_copy_seen(10, 11, tag);           // our own: no reason to hold back
  p.dissem_copy_seen(10, 12, "user-tag");    // not a NORM origin tag
  p.dissem_copy_seen(10, 12, tag_of(norm_origin_of("other-norm", 7, {}, bytes("obj"))));  // another session's
  EXPECT_TRUE(p.dissem_due(kSeconds));
  p.dissem_copy_seen(20, 12, tag);  // another gateway's, first fragments heard
  EXPECT_FALSE(p.dissem_due(kSeconds));
  EXPECT_TRUE(p.take_due_dissem(kSeconds).empty());
  EXPECT_EQ(p.counters().duplicates_suppressed, 1u);
}

}  // namespace norm_gateway_bridge_test
