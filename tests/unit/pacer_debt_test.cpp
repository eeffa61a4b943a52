// What the pacer still owes for our own first-pass bytes (engine/pacer_debt.h).
#include "engine/pacer_debt.h"

#include <gtest/gtest.h>

namespace dissem::engine::pacer_debt_test {
namespace {

TEST(PacerDebt, BytesAreOwedUntilTheDatagramCarryingThemHasLeft) {
  PacerDebt d;
  d.on_taken("a", 1000);
  d.on_taken("b", 500);
  EXPECT_EQ(d.owed("a", 0), 1000u) << "taken into a bundle not yet emitted";
  d.on_emitted(100);
  d.on_taken("a", 200);  // into the next datagram
  EXPECT_EQ(d.owed("a", 99), 1200u);
  EXPECT_EQ(d.owed_total(99), 1700u);
  EXPECT_EQ(d.owed("a", 100), 200u) << "the first datagram's air time has passed";
  EXPECT_EQ(d.owed("b", 100), 0u);
  d.on_emitted(300);
  EXPECT_EQ(d.owed_total(299), 200u);
  EXPECT_EQ(d.owed_total(300), 0u);
}

TEST(PacerDebt, AnEmptyTakeOwesNothingAndSettlesCleanly) {
  PacerDebt d;
  d.on_taken("a", 10);
  d.on_taken("a", 0);  // a cursor advanced by nothing
  d.on_emitted(5);
  EXPECT_EQ(d.owed("a", 5), 0u);
  EXPECT_EQ(d.owed_total(5), 0u);
  d.on_taken("a", 0);
  d.on_emitted(6);
  EXPECT_EQ(d.owed_total(7), 0u);
}

}  // namespace
}  // namespace dissem::engine::pacer_debt_test
