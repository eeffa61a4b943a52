// Ended watermarks (engine/ending/ended_streams.h): the publisher's number below
// which every message of a stream has ended, kept across restarts, moved
// only by ended messages; a heard watermark is bounded by what the stream
// is known to have.
#include <gtest/gtest.h>

#include "engine/ending/ended_streams.h"
#include "support/temp_db.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

TEST(EndedStreams, TheWatermarkMovesOverEndedMessagesOnlyAndSurvivesARestart) {
  TempDb db;
  {
    auto store = cache::Store::open(db.path());
    EndedStreams ended(16);
    EXPECT_EQ(ended.own_watermark("g", *store), 0u) << "nothing ended yet";
    ended.own_ended("g", 2);
    EXPECT_EQ(ended.own_watermark("g", *store), 0u) << "message 1 has not ended: it may still be held";
    ended.own_ended("g", 1);
    ended.own_ended("g", 3);
    ended.own_ended("g", 5);
    EXPECT_EQ(ended.own_watermark("g", *store), 4u) << "1 to 3 ended, 4 still alive";
  }
  auto store = cache::Store::open(db.path());
  EndedStreams again(16);
  again.restore(*store);
  EXPECT_EQ(again.own_watermark("g", *store), 4u);
  again.own_ended("g", 4);
  EXPECT_EQ(again.own_watermark("g", *store), 5u);
}

TEST(EndedStreams, HeardWatermarksOnlyMoveForwardAndAreBounded) {
  using Claim = EndedStreams::Claim;
  EndedStreams ended(2);
  const StreamId a{"a", 7};
  EXPECT_EQ(ended.learn(a, 10, 9, 0, kSeconds), Claim::Moved);
  EXPECT_EQ(ended.learn(a, 8, 9, 0, kSeconds), Claim::Ignored) << "never back";
  EXPECT_EQ(ended.learn(a, 12, 9, 0, kSeconds), Claim::Moved);
  EXPECT_EQ(ended.learnt(a), 12u);
  EXPECT_EQ(ended.learn(StreamId{"b", 7}, 1, 9, 0, kSeconds), Claim::Ignored) << "1 says nothing";
  EXPECT_EQ(ended.learn(StreamId{"b", 7}, 3, 9, 0, kSeconds), Claim::Moved);
  EXPECT_EQ(ended.learn(StreamId{"c", 7}, 3, 9, 0, kSeconds), Claim::Ignored) << "at most max_streams streams";
  EXPECT_EQ(ended.learnt(StreamId{"c", 7}), 0u);
}

TEST(EndedStreams, TheClaimerOfWhatWasSettledOnHearsayIsKnown) {
  EndedStreams ended(4);
  const StreamId s{"g", 7};
  ASSERT_EQ(ended.learn(s, 21, 66, 0, kSeconds), EndedStreams::Claim::Moved);
  ended.note_hearsay(s, {{1, 3}, {5, 21}});  // 3 and 4 were complete here
  EXPECT_EQ(ended.hearsay_claimer(MessageId{"g", 7, 2}), std::optional<NodeId>(66));
  EXPECT_FALSE(ended.hearsay_claimer(MessageId{"g", 7, 3})) << "settled by completion, not by the claim";
  EXPECT_FALSE(ended.hearsay_claimer(MessageId{"g", 7, 21})) << "beyond the claim";
  EXPECT_FALSE(ended.hearsay_claimer(MessageId{"g", 8, 2})) << "another publisher's stream";
}

TEST(EndedStreams, ThePublishersWordReopensWhatHearsaySettledAndHoldsOffFurtherClaims) {
  using Claim = EndedStreams::Claim;
  EndedStreams ended(4);
  const StreamId s{"g", 7};
  ASSERT_EQ(ended.learn(s, 21, 66, 0, kSeconds), Claim::Moved);
  ended.note_hearsay(s, {{1, 3}, {5, 21}});
  // The publisher's beacon: nothing of its stream has ended.
  const auto reopened = ended.publisher_word(s, 1, 10);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> want{{1, 3}, {5, 21}};
  EXPECT_EQ(reopened, want);
  EXPECT_EQ(ended.learnt(s), 1u);
  EXPECT_FALSE(ended.hearsay_claimer(MessageId{"g", 7, 2}));
  EXPECT_TRUE(ended.publisher_word(s, 1, 20).empty()) << "said again: nothing more to reopen";
  // Within `trust` of the publisher's word, another node cannot reach past it ...
  EXPECT_EQ(ended.learn(s, 21, 66, 20 + kSeconds, kSeconds), Claim::Refused);
  // ... the publisher itself can ...
  EXPECT_EQ(ended.learn(s, 4, 7, 20 + kSeconds, kSeconds), Claim::Moved);
  // ... and once its word is old, a relay's claim counts again.
  EXPECT_EQ(ended.learn(s, 9, 66, 30 + 2 * kSeconds, kSeconds), Claim::Moved);
}

TEST(EndedStreams, APublishersFirstPassLowersTheWatermarkToItsNumber) {
  EndedStreams ended(4);
  const StreamId s{"g", 7};
  ASSERT_EQ(ended.learn(s, 21, 66, 0, kSeconds), EndedStreams::Claim::Moved);
  ended.note_hearsay(s, {{1, 21}});
  const auto reopened = ended.publisher_word(s, 11, 5);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> want{{11, 21}};
  EXPECT_EQ(reopened, want) << "below 11 the claim may still be true";
  EXPECT_EQ(ended.learnt(s), 11u);
  EXPECT_EQ(ended.hearsay_claimer(MessageId{"g", 7, 10}), std::optional<NodeId>(66));
}
