// Pending answers to other nodes' MFRs (engine/request_server.h): scheduling
// by due time, merging of requests for the same message (ranges, whole,
// coded block deficits) and handing the due ones over in due order.
#include "engine/repair/request_server.h"

#include <gtest/gtest.h>

namespace dissem::engine::request_server_test {
namespace {

MessageId msg(std::uint64_t seq, const std::string& group = "g") { return {group, 7, seq}; }

using Ranges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

BlockAsk ask(std::uint32_t deficit, std::vector<std::uint8_t> held) {
  BlockAsk a;
  a.deficit = deficit;
  a.symbol_size = 1000;
  a.block_symbols = 16;
  a.held = std::move(held);
  return a;
}

TEST(RequestServer, NothingPendingAtFirst) {
  RequestServer s;
  EXPECT_EQ(s.pending(), 0u);
  EXPECT_FALSE(s.next_due().has_value());
  EXPECT_TRUE(s.take_due(1'000'000 * kSeconds).empty());
}

TEST(RequestServer, AnAnswerIsHandedOverOnceItsDueTimeIsReached) {
  RequestServer s;
  s.on_request(msg(1), false, {{0, 100}}, 10, 50);
  EXPECT_EQ(s.pending(), 1u);
  EXPECT_EQ(s.next_due(), Micros{50});
  EXPECT_TRUE(s.take_due(49).empty()) << "one microsecond early";
  EXPECT_EQ(s.pending(), 1u);
  const auto due = s.take_due(50);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].message, msg(1));
  EXPECT_FALSE(due[0].whole);
  EXPECT_EQ(due[0].ranges.ranges(), (std::vector<ByteRanges::Range>{{0, 100}}));
  EXPECT_EQ(due[0].due, 50);
  EXPECT_EQ(due[0].requested_at, 10);
  EXPECT_TRUE(due[0].blocks.empty());
  // Handed over exactly once.
  EXPECT_EQ(s.pending(), 0u);
  EXPECT_FALSE(s.next_due().has_value());
  EXPECT_TRUE(s.take_due(1000).empty());
}

TEST(RequestServer, DueAnswersComeInDueOrderAndLaterOnesStay) {
  RequestServer s;
  s.on_request(msg(1), true, {}, 0, 300);
  s.on_request(msg(2), true, {}, 0, 100);
  s.on_request(msg(3), true, {}, 0, 200);
  s.on_request(msg(4), true, {}, 0, 900);
  EXPECT_EQ(s.next_due(), Micros{100});
  const auto due = s.take_due(300);
  ASSERT_EQ(due.size(), 3u);
  EXPECT_EQ(due[0].message, msg(2));
  EXPECT_EQ(due[1].message, msg(3));
  EXPECT_EQ(due[2].message, msg(1));
  EXPECT_EQ(s.pending(), 1u);
  EXPECT_EQ(s.next_due(), Micros{900});
}

TEST(RequestServer, EqualDueTimesAreAllHandedOver) {
  RequestServer s;
  s.on_request(msg(2), true, {}, 0, 100);
  s.on_request(msg(1), true, {}, 0, 100);
  s.on_request(msg(1, "other"), true, {}, 0, 100);
  EXPECT_EQ(s.pending(), 3u);
  EXPECT_EQ(s.take_due(100).size(), 3u);
  EXPECT_EQ(s.pending(), 0u);
}

TEST(RequestServer, RequestsForTheSameMessageMergeIntoOneAnswer) {
  RequestServer s;
  s.on_request(msg(1), false, {{0, 100}, {300, 400}}, 10, 500);
  // A second request: overlapping and new ranges, drawn a shorter delay.
  s.on_request(msg(1), false, {{50, 150}, {1000, 1100}}, 20, 200);
  EXPECT_EQ(s.pending(), 1u);
  EXPECT_EQ(s.next_due(), Micros{500}) << "the first drawn deadline stands";
  EXPECT_TRUE(s.take_due(499).empty());
  const auto due = s.take_due(500);
  ASSERT_EQ(due.size(), 1u);
  const std::vector<ByteRanges::Range> want{{0, 150}, {300, 400}, {1000, 1100}};
  EXPECT_EQ(due[0].ranges.ranges(), want);
  EXPECT_EQ(due[0].requested_at, 20) << "the latest merged request";
}

TEST(RequestServer, RequestedAtNeverMovesBackAndALaterDueIsNotAdopted) {
  RequestServer s;
  s.on_request(msg(1), false, {{0, 10}}, 100, 150);
  s.on_request(msg(1), false, {{0, 10}}, 40, 900);  // reordered arrival: older `now`
  ASSERT_EQ(s.next_due(), Micros{150});
  const auto due = s.take_due(150);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].requested_at, 100);
}

TEST(RequestServer, AWholeRequestStaysWholeWhateverIsMergedAfter) {
  RequestServer s;
  s.on_request(msg(1), true, {}, 0, 100);
  s.on_request(msg(1), false, {{0, 10}}, 0, 100);
  s.on_request(msg(2), false, {{0, 10}}, 0, 100);
  s.on_request(msg(2), true, {}, 0, 100);
  const auto due = s.take_due(100);
  ASSERT_EQ(due.size(), 2u);
  EXPECT_TRUE(due[0].whole);
  EXPECT_TRUE(due[1].whole) << "whole after ranges";
}

TEST(RequestServer, EmptyAndInvertedRangesAddNothing) {
  RequestServer s;
  s.on_request(msg(1), false, {{10, 10}, {20, 5}}, 0, 100);
  const auto due = s.take_due(100);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_FALSE(due[0].whole);
  EXPECT_TRUE(due[0].ranges.empty());
}

TEST(RequestServer, AfterHandingOverANewRequestIsScheduledAfresh) {
  RequestServer s;
  s.on_request(msg(1), false, {{0, 10}}, 0, 100);
  ASSERT_EQ(s.take_due(100).size(), 1u);
  s.on_request(msg(1), false, {{20, 30}}, 150, 400);
  EXPECT_EQ(s.next_due(), Micros{400});
  const auto due = s.take_due(400);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].ranges.ranges(), (std::vector<ByteRanges::Range>{{20, 30}})) << "nothing of the old answer";
  EXPECT_EQ(due[0].requested_at, 150);
}

TEST(RequestServer, AFirstBlockAskIsKeptAsItCame) {
  RequestServer s;
  s.on_block_request(msg(1), 3, ask(4, {0x0f, 0xf0}), 10, 100);
  EXPECT_EQ(s.pending(), 1u);
  const auto due = s.take_due(100);
  ASSERT_EQ(due.size(), 1u);
  ASSERT_EQ(due[0].blocks.size(), 1u);
  const BlockAsk& b = due[0].blocks.at(3);
  EXPECT_EQ(b.deficit, 4u);
  EXPECT_EQ(b.symbol_size, 1000u);
  EXPECT_EQ(b.block_symbols, 16u);
  EXPECT_EQ(b.held, (std::vector<std::uint8_t>{0x0f, 0xf0}));
  EXPECT_FALSE(due[0].whole);
  EXPECT_TRUE(due[0].ranges.empty());
}

TEST(RequestServer, MergedBlockAsksTakeTheLargestDeficitAndOnlySourcesEveryoneHolds) {
  RequestServer s;
  s.on_block_request(msg(1), 0, ask(2, {0xff, 0x0f}), 0, 100);
  s.on_block_request(msg(1), 0, ask(5, {0x3c, 0xff}), 5, 50);
  s.on_block_request(msg(1), 0, ask(3, {0xf0, 0x0e}), 8, 70);
  EXPECT_EQ(s.next_due(), Micros{100});
  const auto due = s.take_due(100);
  ASSERT_EQ(due.size(), 1u);
  const BlockAsk& b = due[0].blocks.at(0);
  EXPECT_EQ(b.deficit, 5u);
  EXPECT_EQ(b.held, (std::vector<std::uint8_t>{0x30, 0x0e}));
  EXPECT_EQ(due[0].requested_at, 8);
}

TEST(RequestServer, AShorterHeldBitmapDropsTheSourcesItDoesNotName) {
  RequestServer s;
  s.on_block_request(msg(1), 0, ask(1, {0xff, 0xff, 0xff}), 0, 100);
  s.on_block_request(msg(1), 0, ask(1, {0x81}), 0, 100);
  s.on_block_request(msg(1), 1, ask(1, {0xff}), 0, 100);
  s.on_block_request(msg(1), 1, ask(1, {}), 0, 100);  // a requester holding nothing
  const auto due = s.take_due(100);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].blocks.at(0).held, (std::vector<std::uint8_t>{0x81})) << "not held where unnamed";
  EXPECT_TRUE(due[0].blocks.at(1).held.empty());
  // A longer bitmap merged later cannot bring the dropped sources back.
  RequestServer t;
  t.on_block_request(msg(1), 0, ask(1, {0x01}), 0, 100);
  t.on_block_request(msg(1), 0, ask(1, {0xff, 0xff}), 0, 100);
  EXPECT_EQ(t.take_due(100)[0].blocks.at(0).held, (std::vector<std::uint8_t>{0x01}));
}

TEST(RequestServer, BlocksAndRangesOfOneMessageShareOneAnswer) {
  RequestServer s;
  s.on_request(msg(1), false, {{0, 100}}, 0, 300);
  s.on_block_request(msg(1), 2, ask(1, {0x01}), 0, 100);
  s.on_block_request(msg(1), 5, ask(2, {0x02}), 0, 100);
  s.on_block_request(msg(2), 2, ask(3, {0x03}), 0, 200);
  EXPECT_EQ(s.pending(), 2u);
  const auto early = s.take_due(299);
  ASSERT_EQ(early.size(), 1u);
  EXPECT_EQ(early[0].message, msg(2)) << "message 1 keeps its first deadline";
  const auto due = s.take_due(300);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].message, msg(1));
  EXPECT_EQ(due[0].ranges.covered(), 100u);
  ASSERT_EQ(due[0].blocks.size(), 2u);
  EXPECT_EQ(due[0].blocks.at(2).deficit, 1u);
  EXPECT_EQ(due[0].blocks.at(5).deficit, 2u);
}

TEST(RequestServer, ManyRequestsForOneMessageStayOneTask) {
  RequestServer s;
  for (std::uint32_t i = 0; i < 10'000; ++i)
    s.on_request(msg(1), false, {{i * 10, i * 10 + 5}}, static_cast<Micros>(i), 1'000'000 - static_cast<Micros>(i));
  EXPECT_EQ(s.pending(), 1u);
  EXPECT_EQ(s.next_due(), Micros{1'000'000});
  const auto due = s.take_due(1'000'000);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].ranges.ranges().size(), 10'000u);
  EXPECT_EQ(due[0].ranges.covered(), 50'000u);
  EXPECT_EQ(due[0].requested_at, 9'999);
}

}  // namespace
}  // namespace dissem::engine::request_server_test
