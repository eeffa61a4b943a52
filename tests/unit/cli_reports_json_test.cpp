// `dissem peers --json` and `dissem stats --json` (src/tools): the figures at
// the precision they always had, unknown ones null, counts integers.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "core/json.h"
#include "ipc/stats_json.h"
#include "tools/dissem_commands.h"
#include "tools/dissem_peers.h"

namespace dissem::cli::cli_reports_json_test {
namespace {

TEST(PeersJson, RoundsFiguresAndLeavesUnmeasuredLossNull) {
  ipc::PeerInfo p;
  p.node = 0xabcd;
  p.last_heard_ago = 1'234'567;  // µs: 1234.567 ms, written as a whole 1235
  p.estimated_loss = 0.123456;
  p.srtt = 45'678;
  p.loss_in = 0.5;
  p.received_bytes_per_s = 1234.56;
  p.sent_bytes_per_s = 0;
  p.clock_offset = -2'500'049;  // µs: its clock 2500.0 ms behind ours
  const Json j = peers_json({p});
  EXPECT_EQ(json_text(j), R"({"peers":[{"node":"0000abcd","last_heard_ms_ago":1235,"loss_pct":12.35,)"
                          R"("srtt_ms":45.678,"loss_in_pct":50.0,"loss_out_pct":null,"received_bytes_per_s":1234.6,)"
                          R"("sent_bytes_per_s":0.0,"clock_offset_ms":-2500.0,"link":""}]})");
  EXPECT_EQ(json_text(peers_json({})), R"({"peers":[]})");
  p.link = "hf0";  // heard on the daemon's link of its own on hf0
  EXPECT_EQ(peers_json({p})["peers"][0]["link"], "hf0");
}

TEST(StatsJson, EveryCounterIsAnIntegerUnderItsSection) {
  ipc::StatsSnapshot snap;
  snap.engine.messages_published = 3;
  snap.cache_bytes = 1ull << 40;
  const Json j = ipc::stats_json(snap);
  EXPECT_EQ(j["messages"]["published"], 3);
  EXPECT_EQ(j["cache"]["bytes"], 1ull << 40);
  EXPECT_EQ(j["malformed"]["total"], 0);
  EXPECT_FALSE(j.contains("links")) << "only a daemon with links of their own has them";
  ipc::LinkStats hf;
  hf.name = "hf0";
  hf.engine.messages_carried = 7;
  hf.cache_messages = 2;
  snap.links.push_back(hf);
  const Json with_links = ipc::stats_json(snap);
  EXPECT_EQ(with_links["links"]["hf0"]["messages"]["carried"], 7);
  EXPECT_EQ(with_links["links"]["hf0"]["cache"]["messages"], 2);
  EXPECT_FALSE(with_links["links"]["hf0"].contains("process")) << "one process: its memory is the daemon's";
  EXPECT_TRUE(j["traffic"]["data"]["sent"]["bytes"].is_number_unsigned());
  EXPECT_EQ(json_text(j).rfind(R"({"traffic":{"data":{"sent":{"datagrams":0,"bytes":0},)", 0), 0u) << json_text(j);
  EXPECT_EQ(j.back(), 0) << "own_datagrams_ignored comes last";
}

}  // namespace
}  // namespace dissem::cli::cli_reports_json_test
