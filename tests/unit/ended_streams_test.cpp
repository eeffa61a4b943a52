// Ended watermarks (engine/ended_streams.h): the publisher's number below
// which every message of a stream has ended, kept across restarts, moved
// only by ended messages; a heard watermark is bounded by what the stream
// is known to have.
#include <gtest/gtest.h>

#include "engine/ended_streams.h"
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
  EndedStreams ended(2);
  const StreamId a{"a", 7};
  EXPECT_TRUE(ended.learn(a, 10));
  EXPECT_FALSE(ended.learn(a, 8)) << "never back";
  EXPECT_TRUE(ended.learn(a, 12));
  EXPECT_EQ(ended.learnt(a), 12u);
  EXPECT_FALSE(ended.learn(StreamId{"b", 7}, 1)) << "1 says nothing";
  EXPECT_TRUE(ended.learn(StreamId{"b", 7}, 3));
  EXPECT_FALSE(ended.learn(StreamId{"c", 7}, 3)) << "at most max_streams streams";
  EXPECT_EQ(ended.learnt(StreamId{"c", 7}), 0u);
}
