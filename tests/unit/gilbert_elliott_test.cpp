#include "link/gilbert_elliott.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace dissem::link::gilbert_elliott_test {
namespace {

TEST(GilbertElliott, ParsesThreeProbabilities) {
  const auto p = parse_gilbert("0.01,0.3,0.9");
  EXPECT_DOUBLE_EQ(p.p_good_to_bad, 0.01);
  EXPECT_DOUBLE_EQ(p.p_bad_to_good, 0.3);
  EXPECT_DOUBLE_EQ(p.loss_in_bad, 0.9);
}

TEST(GilbertElliott, ParseErrorsNameTheField) {
  auto message = [](const char* text) {
    try {
      parse_gilbert(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("0.1,0.2"), "expected three comma-separated probabilities PGB,PBG,LOSSBAD");
  EXPECT_EQ(message("0.1,0.2,0.3,0.4"), "expected three comma-separated probabilities PGB,PBG,LOSSBAD");
  EXPECT_EQ(message("0.1,x,0.3"), "p_bad_to_good 'x' is not a number");
  EXPECT_EQ(message("0.1,0.2,1.5"), "loss_in_bad '1.5' is not a probability in [0, 1]");
  EXPECT_EQ(message(",0.2,0.3"), "p_good_to_bad '' is not a number");
}

TEST(GilbertElliott, CheckNamesTheFieldOutOfRange) {
  try {
    GilbertParams{0.1, -0.2, 0.5}.check();
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "Gilbert-Elliott p_bad_to_good must be a probability in [0, 1]");
  }
  EXPECT_NO_THROW((GilbertParams{0, 1, 0.5}).check());
}

TEST(GilbertElliott, StationaryValues) {
  const GilbertParams p{0.1, 0.3, 0.5};
  EXPECT_DOUBLE_EQ(p.stationary_bad(), 0.25);
  EXPECT_DOUBLE_EQ(p.mean_loss(0), 0.125);
  EXPECT_DOUBLE_EQ(p.mean_loss(1), 1);
  EXPECT_DOUBLE_EQ((GilbertParams{0, 0, 1}).stationary_bad(), 0);
}

TEST(GilbertElliott, ChainVisitsBadStateAtItsStationaryShare) {
  const GilbertParams p{0.02, 0.08, 1.0};
  GilbertElliott chain;
  Random rng(42);
  int bad = 0;
  constexpr int kSteps = 200'000;
  for (int i = 0; i < kSteps; ++i) {
    const double pass = chain.step(rng, p, 0.9);
    bad += chain.in_bad_state();
    EXPECT_DOUBLE_EQ(pass, chain.in_bad_state() ? 0.0 : 0.9);
  }
  EXPECT_NEAR(static_cast<double>(bad) / kSteps, 0.2, 0.01);
}

}  // namespace
}  // namespace dissem::link::gilbert_elliott_test
