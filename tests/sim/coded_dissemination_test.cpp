// Coded repair in virtual time: the simulator targets, and coded
// against plain ARQ on the same seeds.
#include <gtest/gtest.h>

#include <cstdio>

#include "sim/experiments.h"

using namespace dissem;
using namespace dissem::sim;

namespace coded_dissemination_test {
namespace {

BaselineResult one_to_three(double reliability_pct, std::uint64_t seed, bool coding) {
  BaselineParams p;
  p.receivers = 3;
  p.capacity_kbps = 256;
  p.reliability_pct = reliability_pct;
  p.seed = seed;
  if (!coding) p.engine_settings = {"coding=false"};
  return run_baseline(p);
}

double megabytes(const BaselineResult& r) { return static_cast<double>(r.run.medium.total.on_air_bytes()) / 1e6; }

}  // namespace

TEST(CodedDissemination, OneToThreeAt70PercentUsesFewerBytesThanThePapersNorm) {
  // The paper's NORM put 1.41 MB on the air in this cell (Table 2).
  for (std::uint64_t seed : {1, 2}) {
    const auto r = one_to_three(70, seed, true);
    std::printf("coded 1-to-3, 70 %%, 256 kbit/s, seed %llu: %.1f s, %.3f MB (bound %.1f s)\n",
                static_cast<unsigned long long>(seed), r.mean_delivery_s, megabytes(r), r.lower_bound_s);
    ASSERT_TRUE(r.run.all_complete);
    for (const auto& rc : r.receivers) EXPECT_EQ(rc.duplicate_deliveries, 0u);
    EXPECT_LT(megabytes(r), 1.41);
    std::uint64_t decoded = 0;
    for (const auto& s : r.run.node_stats) decoded += s.blocks_decoded;
    EXPECT_GT(decoded, 0u) << "the receivers must have decoded coded symbols";
  }
}

TEST(CodedDissemination, CodingBeatsPlainArqOnBytesWithSeveralLossyReceivers) {
  const auto coded = one_to_three(80, 3, true);
  const auto arq = one_to_three(80, 3, false);
  ASSERT_TRUE(coded.run.all_complete);
  ASSERT_TRUE(arq.run.all_complete);
  std::printf("1-to-3, 80 %%: coded %.3f MB in %.1f s, ARQ %.3f MB in %.1f s\n", megabytes(coded),
              coded.mean_delivery_s, megabytes(arq), arq.mean_delivery_s);
  EXPECT_LT(megabytes(coded), 0.85 * megabytes(arq));
  std::uint64_t arq_symbols = 0;
  for (const auto& s : arq.run.node_stats) arq_symbols += s.coded_generated + s.parity_sent;
  EXPECT_EQ(arq_symbols, 0u) << "coding=false must send no coded symbol";
}

TEST(CodedDissemination, TwentyReceiversOnOneSharedChannelDoNotDrownThePublisher) {
  // Twenty receivers that all hold most blocks and all hear every request:
  // without a crowd's floor their repairs took the channel from the
  // publisher (its radio queue overflowed) and answered each deficit many
  // times over (688 KB in 22.7 s here before).
  BaselineParams p;
  p.receivers = 20;
  p.capacity_kbps = 256;
  p.reliability_pct = 75;
  p.bytes = 204'800;
  p.shared_channel = true;
  for (std::uint64_t seed : {1, 2}) {
    p.seed = seed;
    const auto r = run_baseline(p);
    std::printf("1-to-20, one channel, 75 %%, 256 kbit/s, 200 KB, seed %llu: %.1f s, %.3f MB (bound %.1f s)\n",
                static_cast<unsigned long long>(seed), static_cast<double>(r.run.finished_at) / 1e6, megabytes(r), r.lower_bound_s);
    ASSERT_TRUE(r.run.all_complete);
    EXPECT_LT(megabytes(r), 2.2 * 0.2048 / 0.75) << "bytes on the air against the payload over the reliability";
    EXPECT_LT(static_cast<double>(r.run.finished_at) / 1e6, 2.0 * r.lower_bound_s);
  }
}

TEST(CodedDissemination, TacticalAt50PercentWithLargeMessagesReachesThreeNines) {
  // The UAV never serves and hears nothing (asymmetric): a fragment all nine
  // ground nodes lose is recovered from its block's proactive redundancy,
  // which the ground nodes recode among themselves.
  TacticalParams p;
  p.sender_reliability_pct = 50;
  p.message_size = 35'840;
  p.asymmetric = true;
  p.window = 60 * kSeconds;
  p.settle = 50 * kSeconds;
  p.engine_settings = {"redundancy_min=0.1"};
  const auto r = run_tactical(p);
  std::printf("tactical asymmetric 50 %%, 35,840 B: %.2f %% of %zu messages, sender overhead %.0f B/msg, "
              "peer-to-peer %.0f B/msg\n",
              r.success_pct, r.messages_sent, r.sender_overhead_wire_per_msg, r.p2p_overhead_wire_per_msg);
  EXPECT_GE(r.success_pct, 99.9);
}

namespace {

TacticalResult tactical_small(bool windows, std::uint64_t seed) {
  TacticalParams p;
  p.sender_reliability_pct = 50;
  p.message_size = 1024;
  p.asymmetric = true;
  p.window = 60 * kSeconds;
  p.settle = 50 * kSeconds;
  p.seed = seed;
  p.engine_settings = {"redundancy_min=0.1", "redundancy_max=0.1"};
  if (!windows) p.engine_settings.emplace_back("window_messages=0");
  return run_tactical(p);
}

}  // namespace

TEST(CodedDissemination, TacticalAt50PercentWithSmallMessagesWindowCodingReachesThreeNines) {
  // 1 KB messages are one fragment each: block coding can only repeat them.
  // Window symbols combine the UAV's last 16 messages, so a message all nine
  // ground nodes lose is recovered once they hold the others, and repairs
  // among the ground nodes are window symbols serving every requester at once.
  const auto windowed = tactical_small(true, 1);
  const auto copies = tactical_small(false, 1);
  std::uint64_t recovered = 0;
  for (const auto& s : windowed.run.node_stats) recovered += s.fragments_decoded;
  std::printf("tactical asymmetric 50 %%, 1,024 B: windows %.2f %% (p2p %.0f B/msg, %llu recovered), "
              "copies %.2f %% (p2p %.0f B/msg)\n",
              windowed.success_pct, windowed.p2p_overhead_wire_per_msg, static_cast<unsigned long long>(recovered),
              copies.success_pct, copies.p2p_overhead_wire_per_msg);
  EXPECT_GE(windowed.success_pct, 99.9);
  EXPECT_GT(recovered, 0u);
  EXPECT_LT(windowed.p2p_overhead_wire_per_msg, copies.p2p_overhead_wire_per_msg);
}

}  // namespace coded_dissemination_test
