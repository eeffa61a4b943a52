// Radios of their own or one shared channel: the proof a node can see, and
// what its neighbours claim.
#include <gtest/gtest.h>

#include "engine/radio_model.h"

using namespace dissem;
using namespace dissem::engine;

TEST(RadioModel, ProofOfSeparateRadiosIsMoreAirThanOneChannelInThreeWindows) {
  RadioModel m(500 * kMillis);
  const Micros t0 = 1'000 * kSeconds;
  m.on_sample(1.25, t0);
  m.on_sample(1.0, t0 + 600 * kMillis);
  EXPECT_FALSE(m.seen(t0 + kSeconds)) << "one channel's capacity, give or take measurement";
  m.on_sample(1.5, t0 + 1 * kSeconds);
  m.on_sample(1.6, t0 + 1100 * kMillis);  // the same window again: not more proof
  m.on_sample(1.5, t0 + 3 * kSeconds);
  EXPECT_FALSE(m.seen(t0 + 3 * kSeconds)) << "two windows";
  m.on_sample(1.4, t0 + 10 * kSeconds);
  EXPECT_TRUE(m.seen(t0 + 10 * kSeconds)) << "three windows within the hold";
  EXPECT_TRUE(m.seen(t0 + 10 * kSeconds + RadioModel::kHold));
  EXPECT_FALSE(m.seen(t0 + 11 * kSeconds + RadioModel::kHold)) << "proof not renewed fades";
  // Windows too far apart are not one proof.
  RadioModel sparse(500 * kMillis);
  for (int i = 0; i < 5; ++i) sparse.on_sample(2.0, t0 + i * 2 * RadioModel::kHold);
  EXPECT_FALSE(sparse.seen(t0 + 8 * RadioModel::kHold));

  // Neighbours' claims: fresh ones count, withdrawn and stale ones do not.
  m.on_claim(7, true, t0);
  m.on_claim(8, true, t0 + 30 * kSeconds);
  m.on_claim(9, true, t0 + 30 * kSeconds);
  EXPECT_EQ(m.claimed(t0 + 40 * kSeconds), 3u);
  m.on_claim(9, false, t0 + 41 * kSeconds);
  EXPECT_EQ(m.claimed(t0 + 41 * kSeconds), 2u);
  EXPECT_EQ(m.claimed(t0 + 70 * kSeconds), 1u) << "7's claim is older than the hold";
}
