// The engine's parts for coded repair: block layout, the per-block traffic
// memory, the publisher's redundancy planner, the receivers' loss meter, and
// the wire checks on coded symbols and block requests.
#include <gtest/gtest.h>

#include "engine/coders/block_traffic_memory.h"
#include "engine/channel_share.h"
#include "coding/block_layout.h"
#include "engine/reception_meter.h"
#include "engine/coders/redundancy_planner.h"
#include "wire/codec.h"

using namespace dissem;
using namespace dissem::engine;
using dissem::engine::coding::BlockLayout;
using dissem::wire::DecodeError;

TEST(BlockLayout, CutsMessagesIntoBlocksOfKFragments) {
  const BlockLayout l{819'200, 1400, 64};
  EXPECT_EQ(l.fragments(), 586u);  // 585 full fragments and one of 200 bytes
  EXPECT_EQ(l.blocks(), 10u);
  EXPECT_EQ(l.symbols_in(0), 64u);
  EXPECT_EQ(l.symbols_in(9), 586u - 9 * 64);
  EXPECT_EQ(l.begin(1), 64u * 1400);
  EXPECT_EQ(l.end(9), 819'200u);
  EXPECT_EQ(l.block_of(64 * 1400 - 1), 0u);
  EXPECT_EQ(l.block_of(64 * 1400), 1u);
  EXPECT_EQ(l.source_offset(9, 9), 585u * 1400);
  EXPECT_EQ(l.source_length(9, 9), 200u);
  const BlockLayout one{1024, 1024, 64};
  EXPECT_EQ(one.blocks(), 1u);
  EXPECT_EQ(one.symbols_in(0), 1u);
}

TEST(BlockLayout, StrideFromAFragmentOnlyWhenItTells) {
  EXPECT_EQ(coding::stride_from_fragment(5000, 0, 1400), 1400u);
  EXPECT_EQ(coding::stride_from_fragment(5000, 1400, 1400), 1400u);
  EXPECT_EQ(coding::stride_from_fragment(5000, 4200, 800), 0u);  // the last of several
  EXPECT_EQ(coding::stride_from_fragment(900, 0, 900), 900u);    // a message of one fragment
}

TEST(BlockTrafficMemory, CountsSymbolsPerBlockSinceAMoment) {
  BlockTrafficMemory m(1 * kSeconds);
  const MessageId a{"g", 1, 1};
  const MessageId b{"g", 1, 2};
  m.record(a, 0, 100);
  m.record(a, 0, 200);
  m.record(a, 1, 250);
  m.record(b, 0, 300);
  EXPECT_EQ(m.count_since(a, 0, 0, 400), 2u);
  EXPECT_EQ(m.count_since(a, 0, 150, 400), 1u);
  EXPECT_EQ(m.count_since(a, 0, 200, 400), 0u);  // strictly after
  EXPECT_EQ(m.count_since(a, 1, 0, 400), 1u);
  EXPECT_EQ(m.count_since(b, 0, 0, 400), 1u);
  EXPECT_EQ(m.count_since(b, 1, 0, 400), 0u);
  // Outside the window everything is forgotten, memory included.
  EXPECT_EQ(m.count_since(a, 0, 0, 2 * kSeconds), 0u);
  EXPECT_EQ(m.size(), 0u);
}

TEST(RedundancyPlanner, SizesFromTheWorstReportWithinBounds) {
  RedundancyPlanner p(0.05, 1.0);
  EXPECT_DOUBLE_EQ(p.fraction(), 0.05);  // nobody reported: the configured floor
  p.on_report(2, 0.1, 0);
  p.on_report(3, 0.3, 0);
  EXPECT_NEAR(p.fraction(), 0.3 / 0.7, 1e-12);
  // 64 x 0.4286 = 27.4: 27 now, the 0.4 carried to the next block.
  EXPECT_EQ(p.parity_for(64), 27u);
  EXPECT_EQ(p.parity_for(64), 27u);
  EXPECT_EQ(p.parity_for(64), 28u);
  p.expire(10 * kSeconds, 5 * kSeconds);
  EXPECT_DOUBLE_EQ(p.fraction(), 0.05);
  // The last block's margin: one standard deviation of what a receiver gets.
  RedundancyPlanner tail(0.0, 1.0);
  EXPECT_EQ(tail.tail_margin(64), 0u);  // no loss known: none
  tail.on_report(2, 0.3, 0);
  // 91.4 sent at 30 % loss: sd 4.38 symbols received, 6.3 symbols sent.
  EXPECT_EQ(tail.tail_margin(64), 7u);
  RedundancyPlanner capped(0.0, 0.25);
  capped.on_report(2, 0.5, 0);
  EXPECT_DOUBLE_EQ(capped.fraction(), 0.25);
}

TEST(RedundancyPlanner, CoverSizesForTheReceiverAtItsRankSoEnoughHoldEachBlock) {
  // Ten receivers losing 5, 10, ..., 50 %.
  RedundancyPlanner worst(0.0, 4.0);
  RedundancyPlanner half(0.0, 4.0, 0.5);
  RedundancyPlanner most(0.0, 4.0, 0.8);
  for (NodeId r = 1; r <= 10; ++r)
    for (RedundancyPlanner* p : {&worst, &half, &most}) p->on_report(r, 0.05 * static_cast<double>(r), 0);
  EXPECT_NEAR(half.sizing_loss(), 0.50, 1e-12) << "no proof of separate radios yet: the worst receiver";
  for (RedundancyPlanner* p : {&worst, &half, &most}) p->allow_cover(true);
  EXPECT_NEAR(worst.sizing_loss(), 0.50, 1e-12) << "cover 1: the worst receiver";
  EXPECT_NEAR(half.sizing_loss(), 0.25, 1e-12) << "cover 0.5: the fifth best of ten";
  EXPECT_NEAR(most.sizing_loss(), 0.40, 1e-12) << "cover 0.8: the eighth best of ten";
  EXPECT_NEAR(half.fraction(), 0.25 / 0.75, 1e-12);
  EXPECT_NEAR(half.worst_loss(), 0.50, 1e-12);

  // Three reports: at least the second best, so a holder besides the publisher remains.
  RedundancyPlanner three(0.0, 4.0, 0.1);
  three.allow_cover(true);
  three.on_report(1, 0.05, 0);
  three.on_report(2, 0.20, 0);
  three.on_report(3, 0.40, 0);
  EXPECT_NEAR(three.sizing_loss(), 0.20, 1e-12);
  // Fewer than three: the worst, whatever the cover.
  RedundancyPlanner two(0.0, 4.0, 0.1);
  two.allow_cover(true);
  two.on_report(1, 0.05, 0);
  two.on_report(2, 0.40, 0);
  EXPECT_NEAR(two.sizing_loss(), 0.40, 1e-12);
}

TEST(RedundancyPlanner, SilentReceiversGetTheParityOfTheirDeliveryTarget) {
  RedundancyPlanner p(0.0, 1.0);
  EXPECT_EQ(p.silent_parity(50), 0u) << "no silent receivers configured";
  p.set_silent_receivers(0.1, 0.999);
  // The least r with P(Binomial(k + r, 0.9) >= k) >= 0.999 (scipy.stats.binom.sf).
  EXPECT_EQ(p.silent_parity(50), 15u);
  EXPECT_EQ(p.silent_parity(64), 17u);
  EXPECT_EQ(p.silent_parity(255), 47u);
  EXPECT_EQ(p.silent_parity(1), 2u) << "1 - 0.1^3 = 0.999";
  // Larger blocks need a smaller share: the tail narrows.
  EXPECT_LT(p.silent_parity(255) / 255.0, p.silent_parity(50) / 50.0);
  // Without any report the fraction is still the silent receivers' loss / (1 - loss).
  EXPECT_NEAR(p.fraction(), 0.1 / 0.9, 1e-12);
  p.set_silent_receivers(0.3, 0.99);
  EXPECT_GT(p.silent_parity(50), 15u);
  p.set_silent_receivers(0.0, 0.999);
  EXPECT_EQ(p.silent_parity(50), 0u);
  EXPECT_EQ(p.fraction(), 0.0);
}

TEST(RedundancyPlanner, OneFragmentMessagesGetAnExtraCopyEverySoOften) {
  RedundancyPlanner p(0.25, 1.0);
  std::uint32_t parity = 0;
  for (int i = 0; i < 100; ++i) parity += p.parity_for(1);
  EXPECT_EQ(parity, 25u);
}

TEST(ReceptionMeter, EstimatesFirstPassLossFromFragmentIndices) {
  ReceptionMeter m;
  const MessageId big{"g", 7, 1};
  EXPECT_FALSE(m.loss(7).has_value());
  // Of 200 fragments, every fourth is lost.
  for (std::uint32_t i = 0; i < 200; ++i)
    if (i % 4 != 3) m.on_first_pass(big, i);
  ASSERT_TRUE(m.loss(7).has_value());
  EXPECT_NEAR(*m.loss(7), 0.25, 0.02);
  // Duplicates and reordering are no evidence.
  m.on_first_pass(big, 10);
  EXPECT_NEAR(*m.loss(7), 0.25, 0.02);
  // A new message first heard at index 2: its fragments 0 and 1 were lost.
  ReceptionMeter fresh;
  for (std::uint64_t seq = 1; seq <= 40; ++seq) fresh.on_first_pass(MessageId{"g", 8, seq}, 2);
  ASSERT_TRUE(fresh.loss(8).has_value());
  EXPECT_NEAR(*fresh.loss(8), 2.0 / 3.0, 1e-9);
  EXPECT_FALSE(fresh.loss(7).has_value());
}

TEST(ReceptionMeter, CountsSkippedSmallMessagesAsLostAndMeasuresTheMessageInterval) {
  // One-fragment messages every 40 ms, every third lost: there is no index
  // within a message to tell, the sequence numbers do.
  ReceptionMeter m;
  for (std::uint64_t seq = 1; seq <= 300; ++seq)
    if (seq % 3 != 0) m.on_first_pass(MessageId{"g", 5, seq}, 0, static_cast<Micros>(seq) * 40 * kMillis);
  ASSERT_TRUE(m.loss(5).has_value());
  EXPECT_NEAR(*m.loss(5), 1.0 / 3.0, 0.02);
  ASSERT_TRUE(m.message_interval(5).has_value());
  EXPECT_NEAR(static_cast<double>(*m.message_interval(5)), 40e3, 1e3);
  EXPECT_FALSE(m.fragment_interval(5).has_value());  // no message of several fragments yet
}

namespace coded_repair_parts_test {
namespace {

wire::CodedSymbol sample_symbol() {
  wire::CodedSymbol c;
  c.set_group("sensors/grp1");
  c.set_publisher(9);
  c.set_seq(3);
  c.set_total_length(10'000);  // 8 fragments of 1400 (the last 200): one block
  c.set_block(0);
  c.set_seed(42);
  c.set_digest(0x5eed);
  c.set_payload(std::string(1400, 'x'));
  return c;
}

std::optional<DecodeError> decode(const std::vector<std::uint8_t>& b) {
  wire::Decoded out;
  return wire::decode(b, wire::Limits{}, out);
}

}  // namespace

TEST(WireCodec, CodedSymbolRoundTripsAndIsValidated) {
  auto c = sample_symbol();
  wire::Decoded out;
  ASSERT_EQ(wire::decode(wire::encode(c), wire::Limits{}, out), std::nullopt);
  EXPECT_EQ(out.kind, wire::Kind::Coded);
  EXPECT_EQ(out.coded.seed(), 42u);
  c.set_block(1);  // only one block exists
  EXPECT_EQ(decode(wire::encode(c)), DecodeError::BadRange);
  c = sample_symbol();
  c.set_coefficients(std::string(7, '\1'));  // the block has 8 sources
  EXPECT_EQ(decode(wire::encode(c)), DecodeError::BadRange);
  c.set_coefficients(std::string(8, '\1'));
  EXPECT_EQ(decode(wire::encode(c)), std::nullopt);
  c = sample_symbol();
  c.set_payload(std::string(10'001, 'x'));  // a symbol longer than the message
  EXPECT_EQ(decode(wire::encode(c)), DecodeError::BadRange);
  c = sample_symbol();
  c.set_block_symbols(256);
  EXPECT_EQ(decode(wire::encode(c)), DecodeError::BadRange);
  c = sample_symbol();
  c.set_total_length(0);
  EXPECT_EQ(decode(wire::encode(c)), DecodeError::BadLength);
}

TEST(WireCodec, BlockRequestsAreValidated) {
  wire::MissingFragmentRequest r;
  r.set_requester(5);
  auto* w = r.add_wants();
  w->set_group("g");
  w->set_publisher(9);
  auto* m = w->add_messages();
  m->set_seq(1);
  auto* b = m->add_blocks();
  b->set_block(2);
  b->set_deficit(3);
  b->set_symbol_size(1400);
  b->set_held(std::string(8, '\xff'));
  EXPECT_EQ(decode(wire::encode(r)), std::nullopt);
  b->set_deficit(0);
  EXPECT_EQ(decode(wire::encode(r)), DecodeError::BadRange);
  b->set_deficit(3);
  b->set_held(std::string(33, '\xff'));
  EXPECT_EQ(decode(wire::encode(r)), DecodeError::BadRange);
  b->set_held("");
  b->set_symbol_size(0);
  EXPECT_EQ(decode(wire::encode(r)), DecodeError::BadRange);
}

TEST(WireCodec, ReceptionReportsAreValidated) {
  wire::Beacon b;
  b.set_node(3);
  auto* r = b.add_reception();
  r->set_publisher(9);
  r->set_loss_permille(300);
  EXPECT_EQ(decode(wire::encode(b)), std::nullopt);
  r->set_loss_permille(1001);
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
  r->set_loss_permille(10);
  r->set_publisher(0);
  EXPECT_EQ(decode(wire::encode(b)), DecodeError::BadRange);
}

TEST(ChannelShare, ACrowdSharesFourFloorsUnlessTheRadiosAreSeparate) {
  ChannelShare share(1'000'000, 0.05);
  // A busy channel: the floor applies.
  EXPECT_EQ(share.rate_bps(2e6, 0.0), 50'000u);
  EXPECT_EQ(share.rate_bps(2e6, 0.0, 4), 50'000u) << "up to four nodes: a floor each";
  EXPECT_EQ(share.rate_bps(2e6, 0.0, 20), 10'000u) << "twenty: four floors between them";
  EXPECT_EQ(share.rate_bps(0.5e6, 0.0, 20), 500'000u) << "what the others leave free is taken whatever the crowd";
}

TEST(ChannelShare, PacesAtTheCapacityLessWhatOthersOccupy) {
  const ChannelShare share(1'000'000, 0.05);
  EXPECT_EQ(share.rate_bps(0, 0), 1'000'000u);               // a quiet channel: all of it
  EXPECT_EQ(share.rate_bps(300'000, 0), 700'000u);           // what others send is not ours
  EXPECT_NEAR(static_cast<double>(share.rate_bps(350'000, 0.3)), 500'000.0, 1.0);  // a lost frame took air time too
  EXPECT_EQ(share.rate_bps(2'000'000, 0), 50'000u);          // never below the floor
  EXPECT_EQ(share.rate_bps(400'000, 0.9), 200'000u);         // loss counted at most 50 %
}

}  // namespace coded_repair_parts_test
