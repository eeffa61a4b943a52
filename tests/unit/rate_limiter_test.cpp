#include <gtest/gtest.h>

#include "engine/rate_limiter.h"

using namespace dissem;
using namespace dissem::engine;

TEST(Pacer, PacesAtTheConfiguredRateCountingOverhead) {
  Pacer p(256'000, 28, 0);
  Micros now = 0;
  int sent = 0;
  // Send as fast as allowed for 10 s of 1400-byte datagrams.
  while (now < 10 * kSeconds) {
    if (p.can_send(now)) {
      p.on_sent(1400, now);
      ++sent;
    }
    now = std::max(now + 1, p.next_send_time());
  }
  const double expected = 10.0 * 256'000 / ((1400 + 28) * 8);
  EXPECT_NEAR(sent, expected, 1.0);
}

TEST(PrioritySplit, GivesRepairsTheirShareWhenBothAreBacklogged) {
  PrioritySplit s(0.25);
  int repairs = 0;
  for (int i = 0; i < 1000; ++i) {
    const bool r = s.prefer_repair();
    repairs += r;
    s.on_sent(r, 1000, true);
  }
  EXPECT_NEAR(repairs, 250, 2);
}

TEST(PrioritySplit, ExtremesAreStrictPriorities) {
  EXPECT_FALSE(PrioritySplit(0.0).prefer_repair());
  EXPECT_TRUE(PrioritySplit(1.0).prefer_repair());
}
