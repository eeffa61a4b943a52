// dissemd's metrics text (daemon/metrics_text.h): every counter of
// `dissem stats --json` exported with its value, HELP and TYPE; neighbours
// labelled; values escaped as the format wants. And the metrics.listen form.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/json.h"
#include "daemon/listen_address.h"
#include "daemon/metrics_help.h"
#include "daemon/metrics_text.h"
#include "core/version.h"
#include "ipc/stats_json.h"

namespace dissem::daemon::metrics_text_test {
namespace {

// name{labels} -> value, and the names with HELP and TYPE lines.
struct Parsed {
  std::map<std::string, std::string> samples;
  std::map<std::string, std::string> types;
  std::map<std::string, std::string> helps;
};

Parsed parse(const std::string& text) {
  Parsed p;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.rfind("# HELP ", 0) == 0) {
      const auto space = line.find(' ', 7);
      p.helps[line.substr(7, space - 7)] = line.substr(space + 1);
    } else if (line.rfind("# TYPE ", 0) == 0) {
      const auto space = line.find(' ', 7);
      EXPECT_EQ(p.samples.count(line.substr(7, space - 7)), 0u) << "TYPE before its samples: " << line;
      p.types[line.substr(7, space - 7)] = line.substr(space + 1);
    } else {
      const auto space = line.rfind(' ');
      p.samples[line.substr(0, space)] = line.substr(space + 1);
    }
  }
  return p;
}

// Every counter and gauge set to a value of its own.
ipc::StatsSnapshot numbered_snapshot() {
  ipc::StatsSnapshot snap;
  auto& s = snap.engine;
  for (std::size_t i = 0; i < engine::kTrafficKinds; ++i) {
    s.sent[i] = {100 + i, 1000 + i};
    s.received[i] = {200 + i, 2000 + i};
  }
  for (std::size_t i = 0; i < engine::kDecodeErrors; ++i) s.malformed[i] = 300 + i;
  for (std::size_t i = 0; i < engine::kIntegrityEvents; ++i) s.integrity[i] = 400 + i;
  s.mfrs_sent = 7;
  s.messages_published = 11;
  s.own_datagrams_ignored = 13;
  s.silent = true;
  snap.cache_bytes = 1ull << 40;
  snap.peak_rss_bytes = 12345;
  return snap;
}

std::string number_text(const Json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  return std::to_string(v.get<std::uint64_t>());
}

TEST(MetricsText, EveryCounterOfStatsIsExportedWithItsValueHelpAndType) {
  const auto snap = numbered_snapshot();
  const Json stats = ipc::stats_json(snap);
  const Parsed m = parse(metrics_text(snap, {}));
  const std::set<std::string> gauges = {"cache.bytes", "cache.messages", "process.rss_bytes",
                                        "process.peak_rss_bytes", "silent", "cache.paused",
                                        "clock.divergence_seconds"};
  std::size_t checked = 0;
  const auto expect = [&](const std::string& sample, const std::string& family, const Json& value,
                          const std::string& type) {
    ASSERT_TRUE(m.samples.contains(sample)) << sample;
    EXPECT_EQ(m.samples.at(sample), number_text(value)) << sample;
    EXPECT_EQ(m.types.at(family), type) << family;
    EXPECT_FALSE(m.helps.at(family).empty());
    ++checked;
  };
  for (const auto& [section, value] : stats.items()) {
    if (section == "traffic") {
      for (const auto& [kind, dirs] : value.items())
        for (const auto& [dir, units] : dirs.items())
          for (const auto& [unit, n] : units.items()) {
            const std::string family = "dissem_traffic_" + dir + "_" + unit + "_total";
            expect(family + "{kind=\"" + kind + "\"}", family, n, "counter");
            EXPECT_TRUE(metric_help("traffic.*." + dir + "." + unit));
          }
    } else if (section == "malformed" || section == "integrity") {
      const std::string family = section == "malformed" ? "dissem_malformed_datagrams_total"
                                                        : "dissem_integrity_events_total";
      const std::string label = section == "malformed" ? "reason" : "event";
      for (const auto& [reason, n] : value.items())
        if (reason != "total") expect(family + "{" + label + "=\"" + reason + "\"}", family, n, "counter");
      EXPECT_TRUE(metric_help(section + ".*"));
    } else {
      std::vector<std::pair<std::string, Json>> leaves;
      if (value.is_object()) {
        for (const auto& [field, n] : value.items()) leaves.emplace_back(section + "." + field, n);
      } else {
        leaves.emplace_back(section, value);
      }
      for (const auto& [path, n] : leaves) {
        std::string name = "dissem_" + path;
        for (char& c : name) c = c == '.' ? '_' : c;
        const bool gauge = gauges.contains(path);
        if (!gauge) name += "_total";
        expect(name, name, n, gauge ? "gauge" : "counter");
        EXPECT_TRUE(metric_help(path)) << "no HELP for " << path << " (daemon/metrics_help.cpp)";
      }
    }
  }
  EXPECT_GT(checked, 100u);
  EXPECT_EQ(m.samples.at("dissem_silent"), "1");
  EXPECT_EQ(m.samples.at("dissem_cache_bytes"), "1099511627776");
  EXPECT_EQ(m.samples.at("dissem_build_info{version=\"" + std::string(kVersion) + "\"}"), "1");
  EXPECT_EQ(m.samples.at("dissem_peers"), "0");
}

TEST(MetricsText, NeighboursAreLabelledAndUnmeasuredFiguresLeftOut) {
  ipc::PeerInfo measured;
  measured.node = 0xa11c;
  measured.last_heard_ago = 1'500'000;
  measured.estimated_loss = 0.25;
  measured.srtt = 42'000;
  measured.loss_in = 0.1;
  measured.loss_out = 0.2;
  measured.received_bytes_per_s = 1234.5;
  measured.sent_bytes_per_s = 99;
  measured.clock_offset = -1'250'000;
  ipc::PeerInfo fresh;
  fresh.node = 0xb0b;
  const Parsed m = parse(metrics_text({}, {measured, fresh}));
  EXPECT_EQ(m.samples.at("dissem_peers"), "2");
  EXPECT_EQ(m.samples.at("dissem_peer_last_heard_seconds{peer=\"0000a11c\"}"), "1.5");
  EXPECT_EQ(m.samples.at("dissem_peer_loss_ratio{peer=\"0000a11c\"}"), "0.25");
  EXPECT_EQ(m.samples.at("dissem_peer_loss_in_ratio{peer=\"0000a11c\"}"), "0.1");
  EXPECT_EQ(m.samples.at("dissem_peer_loss_out_ratio{peer=\"0000a11c\"}"), "0.2");
  EXPECT_EQ(m.samples.at("dissem_peer_rtt_seconds{peer=\"0000a11c\"}"), "0.042");
  EXPECT_EQ(m.samples.at("dissem_peer_received_bytes_per_second{peer=\"0000a11c\"}"), "1234.5");
  EXPECT_EQ(m.samples.at("dissem_peer_sent_bytes_per_second{peer=\"0000a11c\"}"), "99");
  EXPECT_EQ(m.samples.at("dissem_peer_clock_offset_seconds{peer=\"0000a11c\"}"), "-1.25");
  EXPECT_FALSE(m.samples.contains("dissem_peer_clock_offset_seconds{peer=\"00000b0b\"}")) << "not measured yet";
  EXPECT_TRUE(m.samples.contains("dissem_peer_loss_ratio{peer=\"00000b0b\"}"));
  EXPECT_FALSE(m.samples.contains("dissem_peer_loss_in_ratio{peer=\"00000b0b\"}")) << "not measured yet";
  EXPECT_FALSE(m.samples.contains("dissem_peer_rtt_seconds{peer=\"00000b0b\"}")) << "no echo yet";
  for (const auto& [family, type] : m.types) EXPECT_TRUE(m.helps.contains(family)) << family;
}

TEST(MetricsText, LabelValuesAreEscaped) {
  EXPECT_EQ(metric_label("k", "a\"b\\c\nd"), "k=\"a\\\"b\\\\c\\nd\"");
}

TEST(ListenAddress, TakesLiteralAddressesWithAPortAndSaysWhatIsWrong) {
  std::string why;
  const auto v4 = parse_listen_address("127.0.0.1:9464", why);
  ASSERT_TRUE(v4);
  EXPECT_TRUE(v4->address.is_v4());
  EXPECT_EQ(v4->port, 9464);
  const auto v6 = parse_listen_address("[::1]:80", why);
  ASSERT_TRUE(v6);
  EXPECT_TRUE(v6->address.is_v6());
  for (const char* bad : {"", "127.0.0.1", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:65536", "localhost:80",
                          "::1:80", "[::1]80", "[127.0.0.1]:80", "1.2.3:80", "127.0.0.1:80x"}) {
    why.clear();
    EXPECT_FALSE(parse_listen_address(bad, why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

}  // namespace
}  // namespace dissem::daemon::metrics_text_test
