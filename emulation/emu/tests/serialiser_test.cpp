#include "serialiser.h"

#include <gtest/gtest.h>

namespace dissem::emu {
namespace {

TEST(Serialiser, IdleQueueSendsAtOnce) {
  Serialiser s;
  EXPECT_EQ(s.admit(100, 10, 0), 110);
  EXPECT_EQ(s.admit(500, 10, 0), 510);
}

TEST(Serialiser, LimitCountsWaitingFramesNotTheOneOnTheAir) {
  Serialiser s;
  EXPECT_EQ(s.admit(0, 10, 2), 10);  // on the air
  EXPECT_EQ(s.admit(0, 10, 2), 20);  // waiting 1
  EXPECT_EQ(s.admit(0, 10, 2), 30);  // waiting 2
  EXPECT_EQ(s.admit(0, 10, 2), std::nullopt);
  EXPECT_EQ(s.admit(10, 10, 2), 40);  // the second went on the air at 10
  EXPECT_EQ(s.admit(10, 10, 2), std::nullopt);
}

TEST(Serialiser, ManyFramesKeepTheirOrderAcrossCompaction) {
  Serialiser s;
  for (TimeNs i = 0; i < 1000; ++i) EXPECT_EQ(s.admit(i * 5, 10, 10'000), (i + 1) * 10);
}

TEST(SerialisationTime, RoundsUpToWholeNanoseconds) {
  EXPECT_EQ(serialisation_time(200, 256'000), 6'250'000);
  EXPECT_EQ(serialisation_time(1, 3), 2'666'666'667);
  EXPECT_EQ(serialisation_time(1500, 1'000'000'000), 12'000);
}

}  // namespace
}  // namespace dissem::emu
