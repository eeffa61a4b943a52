// dissem-rogue's builders (emulation/rogue/hostile_datagrams.h): each attack
// is what it claims to be on the wire.
#include <gtest/gtest.h>

#include "engine/fragmenter.h"
#include "hostile_datagrams.h"
#include "wire/codec.h"
#include "wire/message_digest.h"

using namespace dissem;
using namespace dissem::rogue;

namespace hostile_datagrams_test {
namespace {

wire::Decoded decode_ok(const Datagram& d) {
  wire::Decoded out;
  EXPECT_EQ(wire::decode(d, wire::Limits{}, out), std::nullopt);
  return out;
}

Datagram real_fragment() {
  const std::vector<std::uint8_t> payload(2800, 0x33);
  MessageMeta meta;
  meta.id = {"ops", 77, 5};
  meta.total_length = 2800;
  meta.digest = wire::message_digest(payload);
  wire::DataFragment d;
  engine::fill_fragment(d, meta, 1400, std::span(payload).subspan(1400), false, 0);
  return wire::encode(d);
}

}  // namespace

TEST(HostileDatagrams, EachAttackIsWhatItClaims) {
  std::mt19937_64 rng(3);
  const auto target = learn(real_fragment());
  ASSERT_TRUE(target);
  EXPECT_EQ(target->group, "ops");
  EXPECT_EQ(target->publisher, 77u);
  EXPECT_EQ(target->newest, 5u);

  const auto beacon = decode_ok(phantom_beacon(rng, "ops", 1000, 2048, target));
  ASSERT_EQ(beacon.kind, wire::Kind::Beacon);
  EXPECT_EQ(beacon.beacon.newest_size(), 1001);
  EXPECT_EQ(beacon.beacon.newest(1000).publisher(), 77u);
  EXPECT_GT(beacon.beacon.newest(1000).seq(), 1'000'000'000u);

  const auto request = decode_ok(request_flood(rng, *target));
  ASSERT_EQ(request.kind, wire::Kind::Request);
  EXPECT_EQ(request.request.wants(0).messages_size(), 5);

  const auto original = decode_ok(real_fragment()).data;
  const auto same_digest = decode_ok(corrupted_copy(rng, real_fragment(), false)).data;
  EXPECT_EQ(same_digest.digest(), original.digest());
  EXPECT_NE(same_digest.payload(), original.payload());
  const auto other_digest = decode_ok(corrupted_copy(rng, real_fragment(), true)).data;
  EXPECT_NE(other_digest.digest(), original.digest());
  EXPECT_TRUE(corrupted_copy(rng, phantom_beacon(rng, "ops", 1, 1, std::nullopt), false).empty());

  for (int i = 0; i < 200; ++i) {  // garbage: refused, never a crash
    wire::Decoded out;
    (void)wire::decode(malformed(rng), wire::Limits{}, out);
  }
}

}  // namespace hostile_datagrams_test
