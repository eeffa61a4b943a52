// The datagram decoder: valid messages round-trip, and each kind of bad
// datagram is rejected with its own reason.
#include <gtest/gtest.h>

#include <cstdio>

#include "engine/fragmenter.h"
#include "wire/codec.h"
#include "wire/message_digest.h"

using dissem::wire::DecodeError;
namespace wire = dissem::wire;

namespace wire_codec_test {
namespace {

wire::DataFragment sample_fragment() {
  dissem::MessageMeta meta;
  meta.id = {"sensors/grp1", 0xA1B2C3D4, 7};
  meta.total_length = 819200;
  meta.priority = 2;
  meta.expiry_ms = 1'800'000'000'123;
  meta.digest = 0x8877665544332211ULL;
  std::vector<std::uint8_t> payload(1400, 0x5a);
  wire::DataFragment d;
  dissem::engine::fill_fragment(d, meta, 409600, payload, false, 0);
  return d;
}

std::optional<DecodeError> decode(const std::vector<std::uint8_t>& b) {
  wire::Decoded out;
  return wire::decode(b, wire::Limits{}, out);
}

}  // namespace

TEST(WireCodec, DataFragmentRoundTrips) {
  const auto bytes = wire::encode(sample_fragment());
  wire::Decoded out;
  ASSERT_EQ(wire::decode(bytes, wire::Limits{}, out), std::nullopt);
  EXPECT_EQ(out.kind, wire::Kind::Data);
  EXPECT_EQ(out.data.group(), "sensors/grp1");
  EXPECT_EQ(out.data.offset(), 409600u);
  EXPECT_EQ(out.data.payload().size(), 1400u);
}

TEST(WireCodec, HeaderOverheadWithinBudget) {
  // A mid-message fragment, the group named in full (12 characters), with
  // priority and expiry: within the first budget of 40 bytes plus the 8 of
  // the digest every fragment of a multi-fragment message carries.
  const auto d = sample_fragment();
  const std::size_t named = wire::encode(d).size() - d.payload().size();
  const std::size_t by_ref = wire::encode(d, {1, false, false}).size() - d.payload().size();
  std::printf("per-fragment protocol overhead: %zu bytes named (12-char group), %zu by reference "
              "(mid-message fragment, priority and expiry set)\n",
              named, by_ref);
  EXPECT_LE(named, 40u + 9u);
  EXPECT_EQ(named - by_ref, 1u + d.group().size()) << "the name costs its length and bytes, no more";
  auto without = d;
  without.clear_digest();
  EXPECT_EQ(wire::encode(d, {1, false, false}).size(), wire::encode(without, {1, false, true}).size());
}

TEST(WireCodec, ASmallMessageInAKnownGroupCostsAtMostTwelveBytes) {
  // Issue 14's target: a single-fragment message, group known by reference,
  // no options. The sequence number is a varint: the budget holds to 2^21.
  for (const std::uint64_t seq : {1ull, 127ull, 16'383ull, 2'097'151ull}) {
    dissem::MessageMeta meta;
    meta.id = {"tracks/blue-force", 0xA1B2C3D4, seq};
    const std::vector<std::uint8_t> payload(134, 0x5a);
    meta.total_length = static_cast<std::uint32_t>(payload.size());
    meta.digest = wire::message_digest(payload);
    wire::DataFragment d;
    dissem::engine::fill_fragment(d, meta, 0, payload, false, 0);
    const auto bytes = wire::encode(d, {3, false, false});
    const std::size_t header = bytes.size() - payload.size();
    std::printf("one 134-byte message, seq %llu: %zu bytes of header\n", static_cast<unsigned long long>(seq), header);
    EXPECT_LE(header, 12u);
    // It decodes, digest and length included, where the reference is known.
    wire::GroupRefs refs;
    refs.learn(0xA1B2C3D4, 3, "tracks/blue-force");
    wire::Decoded out;
    ASSERT_EQ(wire::decode(bytes, wire::Limits{}, out, &refs), std::nullopt);
    EXPECT_EQ(out.data.group(), "tracks/blue-force");
    EXPECT_EQ(out.data.seq(), seq);
    EXPECT_EQ(out.data.total_length(), 134u);
    EXPECT_EQ(out.data.digest(), meta.digest) << "computed from the payload, as the publisher did";
    EXPECT_EQ(wire::decode(bytes, wire::Limits{}, out), DecodeError::UnknownGroupRef) << "unknown elsewhere";
  }
}

TEST(WireCodec, RejectsEmptyAndWrongVersion) {
  EXPECT_EQ(decode({}), DecodeError::Empty);
  auto bytes = wire::encode(sample_fragment());
  bytes[0] = static_cast<std::uint8_t>((2 << 4) | 1);  // version 2: protobuf data frames, names in full
  EXPECT_EQ(decode(bytes), DecodeError::BadVersion);
  bytes[0] = static_cast<std::uint8_t>((4 << 4) | 1);
  EXPECT_EQ(decode(bytes), DecodeError::BadVersion);
  bytes[0] = static_cast<std::uint8_t>((wire::kWireVersion << 4) | 9);
  EXPECT_EQ(decode(bytes), DecodeError::UnknownKind);
}

TEST(WireCodec, RejectsTruncated) {
  // Anywhere in the header: the frame does not parse. (The payload is the
  // rest of the datagram: UDP delivers datagrams whole, and a payload cut
  // short by a buggy sender is the digest's to catch.)
  const auto whole = wire::encode(sample_fragment());
  const std::size_t header = whole.size() - sample_fragment().payload().size();
  for (std::size_t keep = 1; keep < header; ++keep) {
    auto bytes = whole;
    bytes.resize(keep);
    EXPECT_EQ(decode(bytes), DecodeError::Unparseable) << "cut to " << keep << " bytes";
  }
}

TEST(WireCodec, RejectsOffsetsBeyondTotalLength) {
  auto d = sample_fragment();
  d.set_offset(d.total_length() - 10);
  EXPECT_EQ(decode(wire::encode(d)), DecodeError::BadRange);
}

TEST(WireCodec, RejectsAbsurdTotalLengths) {
  auto d = sample_fragment();
  d.set_total_length(0xFFFFFFFFu);
  EXPECT_EQ(decode(wire::encode(d)), DecodeError::BadLength);
  d.set_total_length(0);
  EXPECT_EQ(decode(wire::encode(d)), DecodeError::BadLength);
}

TEST(WireCodec, RejectsBadGroupNames) {
  auto d = sample_fragment();
  d.set_group("");
  EXPECT_EQ(decode(wire::encode(d)), DecodeError::BadGroup);
  d.set_group(std::string(300, 'g'));
  EXPECT_EQ(decode(wire::encode(d)), DecodeError::BadGroup);
}

TEST(WireCodec, RejectsZeroSequenceOrPublisher) {
  auto d = sample_fragment();
  d.set_seq(0);
  EXPECT_EQ(decode(wire::encode(d)), DecodeError::BadRange);
}

TEST(WireCodec, RejectsOversizedAndMalformedRequests) {
  wire::MissingFragmentRequest r;
  r.set_requester(9);
  auto* w = r.add_wants();
  w->set_group("g");
  w->set_publisher(1);
  auto* m = w->add_messages();
  m->set_seq(1);
  m->add_ranges(0);
  m->add_ranges(1400);
  EXPECT_EQ(decode(wire::encode(r)), std::nullopt);

  m->add_ranges(5);  // odd number of bounds
  EXPECT_EQ(decode(wire::encode(r)), DecodeError::BadRange);
  m->clear_ranges();
  m->add_ranges(2000);
  m->add_ranges(1000);  // begin >= end
  EXPECT_EQ(decode(wire::encode(r)), DecodeError::BadRange);

  m->clear_ranges();
  for (std::uint32_t i = 0; i < 5000; ++i) {
    m->add_ranges(i * 2);
    m->add_ranges(i * 2 + 1);
  }
  EXPECT_EQ(decode(wire::encode(r)), DecodeError::OversizedRequest);
}

TEST(WireCodec, RandomBytesNeverCrash) {
  std::uint64_t s = 99;
  for (int i = 0; i < 20000; ++i) {
    std::vector<std::uint8_t> b(static_cast<std::size_t>(i % 200));
    for (auto& x : b) x = static_cast<std::uint8_t>((s = s * 6364136223846793005ULL + 1) >> 56);
    if (!b.empty()) b[0] = static_cast<std::uint8_t>(wire::kWireVersion << 4 | (b[0] % 7));
    (void)decode(b);  // must return, not crash or throw
  }
  SUCCEED();
}

namespace {

wire::Summary sample_summary() {
  wire::Summary s;
  s.set_node(42);
  s.add_wants("chat");
  auto* h = s.add_streams();
  h->set_group("chat");
  h->set_publisher(7);
  for (const std::uint64_t v : {1, 5, 9, 12}) h->add_held(v);  // [1, 5) and [9, 12)
  return s;
}

}  // namespace

TEST(WireCodec, SummaryRoundTripsAsItsOwnKind) {
  const auto bytes = wire::encode(sample_summary());
  EXPECT_EQ(bytes[0], (wire::kWireVersion << 4) | 4);
  wire::Decoded out;
  ASSERT_EQ(wire::decode(bytes, wire::Limits{}, out), std::nullopt);
  EXPECT_EQ(out.kind, wire::Kind::Summary);
  EXPECT_EQ(out.summary.node(), 42u);
  EXPECT_EQ(out.summary.streams(0).held_size(), 4);
}

TEST(WireCodec, RejectsMalformedSummaries) {
  const auto with = [](auto change) {
    auto s = sample_summary();
    change(s);
    return decode(wire::encode(s));
  };
  EXPECT_EQ(with([](wire::Summary& s) { s.set_node(0); }), DecodeError::BadRange);
  EXPECT_EQ(with([](wire::Summary& s) { s.add_wants(""); }), DecodeError::BadGroup);
  EXPECT_EQ(with([](wire::Summary& s) { s.mutable_streams(0)->set_publisher(0); }), DecodeError::BadRange);
  EXPECT_EQ(with([](wire::Summary& s) { s.mutable_streams(0)->add_held(20); }), DecodeError::BadRange);  // odd
  EXPECT_EQ(with([](wire::Summary& s) { s.mutable_streams(0)->set_held(0, 0); }), DecodeError::BadRange);  // seq 0
  EXPECT_EQ(with([](wire::Summary& s) { s.mutable_streams(0)->set_held(2, 3); }), DecodeError::BadRange);  // overlap
  EXPECT_EQ(with([](wire::Summary& s) { s.mutable_streams(0)->set_held(3, 9); }), DecodeError::BadRange);  // empty
  EXPECT_EQ(with([](wire::Summary& s) {
              auto* h = s.mutable_streams(0);
              for (std::uint64_t q = 100; q < 100 + 2 * 5000; q += 2) {
                h->add_held(q);
                h->add_held(q + 1);
              }
            }),
            DecodeError::OversizedRequest);
}

TEST(WireCodec, BeaconInterestsAndOldestAreValidated) {
  wire::Beacon b;
  b.set_node(3);
  auto* i = b.add_interests();
  i->set_group("chat");
  i->set_distance(2);
  i->set_via(9);
  i->set_subscriber(12);
  auto* n = b.add_newest();
  n->set_group("chat");
  n->set_publisher(7);
  n->set_seq(10);
  n->set_oldest(4);
  EXPECT_EQ(decode(wire::encode(b)), std::nullopt);
  i->set_via(0);  // learnt interest must name where from
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
  i->set_via(9);
  i->set_distance(1000);
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
  i->set_distance(2);
  i->set_subscriber(0);  // every vector names its subscriber
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
  i->set_distance(0);
  i->set_via(0);
  i->set_subscriber(12);  // distance 0 from someone else
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
  i->set_subscriber(3);  // the sender's own subscription
  EXPECT_EQ(decode(wire::encode(b)), std::nullopt);
  i->set_distance(2);
  i->set_via(9);  // further than 0 from itself
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
  i->set_subscriber(12);
  i->set_via(3);  // its own next hop
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
  i->set_via(9);
  for (int k = 0; k < 1100; ++k) *b.add_interests() = *i;  // more entries than any beacon may carry
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::OversizedRequest);
  b.mutable_interests()->DeleteSubrange(1, 1100);
  EXPECT_EQ(decode(wire::encode(b)), std::nullopt);
  n->set_oldest(11);  // holds from beyond the newest it knows
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
}

TEST(WireCodec, OnlyRebroadcastsCarryTheForwarder) {
  dissem::MessageMeta meta;
  meta.id = {"sensors/grp1", 0xA1B2C3D4, 7};
  meta.total_length = 819200;
  meta.digest = 1;
  std::vector<std::uint8_t> payload(1400, 0x5a);
  wire::DataFragment d;
  dissem::engine::fill_fragment(d, meta, 409600, payload, false, 2);
  const auto without = wire::encode(d).size();
  dissem::engine::fill_fragment(d, meta, 409600, payload, false, 2, 0x01020304);
  const auto bytes = wire::encode(d);
  EXPECT_EQ(bytes.size(), without + 4);  // a fixed32, on rebroadcasts only
  wire::Decoded out;
  ASSERT_EQ(wire::decode(bytes, wire::Limits{}, out), std::nullopt);
  EXPECT_EQ(out.data.forwarder(), 0x01020304u);
  EXPECT_EQ(out.data.hops(), 2u);
}

TEST(WireCodec, EveryFragmentAndSymbolCarriesTheDigest) {
  dissem::MessageMeta meta;
  meta.id = {"g", 5, 1};
  meta.total_length = 2800;
  const std::vector<std::uint8_t> payload(1400, 1);
  wire::DataFragment d;
  for (const std::uint32_t offset : {0u, 1400u}) {
    meta.digest = 0;
    dissem::engine::fill_fragment(d, meta, offset, payload, false, 0);
    EXPECT_EQ(decode(wire::encode(d)), DecodeError::BadDigest) << "no digest at offset " << offset;
    meta.digest = 0x0123456789abcdefULL;
    dissem::engine::fill_fragment(d, meta, offset, payload, false, 0);
    EXPECT_EQ(decode(wire::encode(d)), std::nullopt);
  }

  wire::CodedSymbol c;
  c.set_group("g");
  c.set_publisher(5);
  c.set_seq(1);
  c.set_block(0);
  c.set_total_length(2800);
  c.set_payload(std::string(1400, '\0'));
  EXPECT_EQ(decode(wire::encode(c)), DecodeError::BadDigest) << "a symbol without a digest";
  c.set_digest(7);
  EXPECT_EQ(decode(wire::encode(c)), std::nullopt);
}

TEST(WireCodec, SignaturesAndChainLinksHaveTheirSizesAndALinkNeedsASignature) {
  wire::DataFragment d = sample_fragment();
  wire::CodedSymbol c;
  c.set_group("g");
  c.set_publisher(5);
  c.set_seq(1);
  c.set_total_length(2800);
  c.set_payload(std::string(1400, '\0'));
  c.set_digest(7);
  auto check = [&](const std::string& signature, const std::string& chain) {
    d.set_signature(signature);
    d.set_chain(chain);
    c.set_signature(signature);
    c.set_chain(chain);
    const auto a = decode(wire::encode(d));
    const auto b = decode(wire::encode(c));
    EXPECT_EQ(a, b) << "fragments and symbols agree";
    return a;
  };
  EXPECT_EQ(check(std::string(64, 's'), std::string(16, 'l')), std::nullopt);
  EXPECT_EQ(check(std::string(64, 's'), ""), std::nullopt) << "a publisher's first message after a restart";
  EXPECT_EQ(check(std::string(64, 's'), std::string(15, 'l')), DecodeError::BadDigest);
  EXPECT_EQ(check(std::string(64, 's'), std::string(17, 'l')), DecodeError::BadDigest);
  EXPECT_EQ(check("", std::string(16, 'l')), DecodeError::BadDigest) << "a link outside a signed manifest";
  EXPECT_EQ(check(std::string(63, 's'), ""), DecodeError::BadDigest);
}

TEST(WireCodec, DataFramesRefuseNamesAndTagsThatAreNotUtf8) {
  auto d = sample_fragment();
  d.set_group("caf\xc3\xa9/\xe2\x82\xac");  // "café/€": well-formed
  EXPECT_EQ(decode(wire::encode(d)), std::nullopt);
  for (const char* bad : {"\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\xff" "b"}) {
    d.set_group(bad);
    EXPECT_EQ(decode(wire::encode(d)), DecodeError::BadGroup) << "overlong, surrogate, too high, truncated or stray";
  }
  d.set_group("g");
  d.set_tag("\xfe");
  EXPECT_EQ(decode(wire::encode(d)), DecodeError::Unparseable);
}

}  // namespace wire_codec_test
