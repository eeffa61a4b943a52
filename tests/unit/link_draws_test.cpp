// link_draws.h: which uniform draws each decision takes, in which order, and
// the pass probability under burst loss. A twin generator with the same seed
// replays the draws the model must have made.
#include "link/link_draws.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace dissem::link::link_draws_test {
namespace {

TEST(LinkDraws, APlainLinkTakesOneDrawForLossAndNoneForDelayWithoutJitter) {
  Random rng(7), twin(7);
  LinkSpec spec;
  spec.reliability = 0.5;
  spec.latency = 40;
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(survives(rng, spec, nullptr), twin.chance(0.5));
    EXPECT_EQ(delay(rng, spec), 40);
    EXPECT_FALSE(duplicated(rng, spec));
  }
  EXPECT_EQ(rng.next(), twin.next());  // no other draw was made
}

TEST(LinkDraws, JitterAndDuplicatesDrawInTheirOrder) {
  Random rng(3), twin(3);
  LinkSpec spec;
  spec.latency = 100;
  spec.jitter = 20;
  spec.duplicate = 0.3;
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(survives(rng, spec, nullptr));
    EXPECT_TRUE(twin.chance(1.0));
    EXPECT_EQ(delay(rng, spec), 100 + twin.uniform_int(0, 20));
    EXPECT_EQ(duplicated(rng, spec), twin.chance(0.3));
  }
  EXPECT_EQ(rng.next(), twin.next());
}

TEST(LinkDraws, ADisabledLinkPassesNothingAndDrawsNothing) {
  Random rng(5), twin(5);
  LinkSpec spec;
  spec.enabled = false;
  spec.burst = GilbertParams{0.5, 0.5, 1.0};
  GilbertElliott chain;
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(survives(rng, spec, &chain));
  EXPECT_EQ(rng.next(), twin.next());
}

TEST(LinkDraws, BurstLossStepsTheChainThenDrawsAgainstThePassProbability) {
  Random rng(11), twin(11);
  LinkSpec spec;
  spec.reliability = 0.8;
  spec.burst = GilbertParams{0.2, 0.4, 0.5};
  GilbertElliott chain, twin_chain;
  for (int i = 0; i < 1000; ++i) {
    const double pass = twin_chain.step(twin, *spec.burst, 0.8);
    EXPECT_DOUBLE_EQ(pass, twin_chain.in_bad_state() ? 0.4 : 0.8);
    EXPECT_EQ(survives(rng, spec, &chain), twin.chance(pass));
  }
  EXPECT_THROW(survives(rng, spec, nullptr), std::logic_error);
}

TEST(LinkSpec, CheckNamesTheFieldOutOfRange) {
  LinkSpec spec;
  spec.reliability = 1.5;
  EXPECT_THROW(spec.check(), std::invalid_argument);
  spec = LinkSpec{};
  spec.jitter = -1;
  EXPECT_THROW(spec.check(), std::invalid_argument);
  spec = LinkSpec{};
  spec.duplicate = 2;
  EXPECT_THROW(spec.check(), std::invalid_argument);
  spec = LinkSpec{};
  spec.burst = GilbertParams{0.1, 0.1, 7};
  EXPECT_THROW(spec.check(), std::invalid_argument);
}

}  // namespace
}  // namespace dissem::link::link_draws_test
