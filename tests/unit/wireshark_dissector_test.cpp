// The Wireshark dissector (docs/wireshark/dissem.lua) run by tshark over a
// capture of datagrams of every kind, made by the real encoders: each must
// decode with the right kind and fields, and crafted malformed ones, which
// wire::decode refuses too, must be flagged. The emulator's own captures
// are read by it in emulation/tests/test_wireshark_dissector.py.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/security/datagram_auth.h"
#include "wire/codec.h"

using namespace dissem;
namespace fs = std::filesystem;

namespace wireshark_dissector_test {
namespace {

const std::string kScript = std::string(DISSEM_SOURCE_DIR) + "/docs/wireshark/dissem.lua";
constexpr std::uint32_t kPublisher = 0x0a0b0c0d;

void put16be(std::string& out, unsigned v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v & 0xff));
}
void put32le(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}

// A classic pcap of Ethernet/IPv4/UDP frames to port 42424, one per datagram.
void write_pcap(const fs::path& path, const std::vector<std::vector<std::uint8_t>>& datagrams) {
  std::string out;
  put32le(out, 0xa1b2c3d4);
  out += std::string("\x02\x00\x04\x00", 4);
  put32le(out, 0);
  put32le(out, 0);
  put32le(out, 65535);
  put32le(out, 1);  // Ethernet
  std::uint32_t second = 1'800'000'000;
  for (const auto& d : datagrams) {
    std::string frame = std::string("\x01\x00\x5e\x7f\x2a\x63\x02\x00\x00\x00\x00\x01\x08\x00", 14);
    std::string ip = std::string("\x45\x00", 2);
    put16be(ip, static_cast<unsigned>(20 + 8 + d.size()));
    ip += std::string("\x00\x00\x40\x00\x01\x11\x00\x00\x0a\x00\x00\x01\xef\xff\x2a\x63", 16);
    unsigned sum = 0;
    for (std::size_t i = 0; i < ip.size(); i += 2)
      sum += (static_cast<unsigned char>(ip[i]) << 8) | static_cast<unsigned char>(ip[i + 1]);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
    ip[10] = static_cast<char>((~sum >> 8) & 0xff);
    ip[11] = static_cast<char>(~sum & 0xff);
    std::string udp;
    put16be(udp, 42424);
    put16be(udp, 42424);
    put16be(udp, static_cast<unsigned>(8 + d.size()));
    put16be(udp, 0);
    frame += ip + udp + std::string(d.begin(), d.end());
    put32le(out, second++);
    put32le(out, 0);
    put32le(out, static_cast<std::uint32_t>(frame.size()));
    put32le(out, static_cast<std::uint32_t>(frame.size()));
    out += frame;
  }
  std::ofstream(path, std::ios::binary) << out;
}

const std::vector<std::string> kFields = {
    "dissem.kind_name",       "dissem.malformed",        "dissem.data.publisher",
    "dissem.data.group",      "dissem.data.seq",         "dissem.data.offset",
    "dissem.data.total_length", "dissem.data.tag",       "dissem.data.hops",
    "dissem.data.forwarder",  "dissem.data.payload_length", "dissem.data.repair",
    "dissem.missingfragmentrequest.requester", "dissem.messagewants.seq", "dissem.beacon.node",
    "dissem.beacon.seq",      "dissem.interest.via",     "dissem.summary.node",
    "dissem.summary.wants",   "dissem.codedsymbol.block", "dissem.codedsymbol.seq",
    "dissem.windowsymbol.first_seq", "dissem.windowsymbol.count", "dissem.bundle.items",
    "dissem.trailer.sender"};

// tshark's fields per frame: name -> first value ("" when absent).
std::vector<std::map<std::string, std::string>> run_tshark(const fs::path& pcap, bool trailer) {
  std::string cmd = "tshark -X lua_script:" + kScript + " -r " + pcap.string() +
                    (trailer ? " -o dissem.trailer:TRUE" : "") + " -T fields -E separator=/t -E occurrence=f";
  for (const auto& f : kFields) cmd += " -e " + f;
  cmd += " 2>/dev/null";
  std::vector<std::map<std::string, std::string>> rows;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return rows;
  std::string text;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  ::pclose(p);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::map<std::string, std::string> row;
    std::size_t start = 0;
    for (const auto& f : kFields) {
      const auto tab = line.find('\t', start);
      row[f] = line.substr(start, tab == std::string::npos ? std::string::npos : tab - start);
      start = tab == std::string::npos ? line.size() : tab + 1;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

wire::DataFragment data_fragment() {
  wire::DataFragment d;
  d.set_group("tracks");
  d.set_publisher(kPublisher);
  d.set_seq(7);
  d.set_offset(1400);
  d.set_total_length(4200);
  d.set_digest(0x1122334455667788ULL);
  d.set_priority(5);
  d.set_expiry_ms(123456789);
  d.set_tag("unit-7");
  d.set_history_window(3);
  d.set_hops(2);
  d.set_forwarder(0x11223344);
  d.set_payload(std::string(1400, 'x'));
  return d;
}

wire::DataFragment small(std::uint64_t seq) {
  wire::DataFragment d;
  d.set_group("tracks");
  d.set_publisher(kPublisher);
  d.set_seq(seq);
  d.set_payload("position " + std::to_string(seq));
  d.set_total_length(static_cast<std::uint32_t>(d.payload().size()));
  return d;
}

bool decodes(const std::vector<std::uint8_t>& datagram) {
  wire::Decoded out;
  return !wire::decode(datagram, wire::Limits{}, out).has_value();
}

class WiresharkDissector : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
      GTEST_FAIL() << "tshark is not installed (scripts/setup.sh installs it)";
    char tmpl[] = "/tmp/dissem-dissector-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

}  // namespace

TEST_F(WiresharkDissector, EveryKindDecodesWithItsFields) {
  std::vector<std::vector<std::uint8_t>> d;
  d.push_back(wire::encode(data_fragment(), wire::DataEncoding{3, true, false}));  // named, ref 3
  wire::DataFragment by_ref = data_fragment();
  by_ref.set_seq(8);
  by_ref.set_repair(true);
  d.push_back(wire::encode(by_ref, wire::DataEncoding{3, false, false}));  // the reference alone

  wire::MissingFragmentRequest mfr;
  mfr.set_requester(0x55);
  auto* w = mfr.add_wants();
  w->set_group("tracks");
  w->set_publisher(kPublisher);
  auto* m = w->add_messages();
  m->set_seq(9);
  m->add_ranges(0);
  m->add_ranges(1400);
  d.push_back(wire::encode(mfr));

  wire::Beacon b;
  b.set_node(0x66);
  b.set_seq(42);
  b.set_sent_us(1'000'000);
  auto* nw = b.add_newest();
  nw->set_group("tracks");
  nw->set_publisher(kPublisher);
  nw->set_seq(9);
  b.add_echoes()->set_peer(0x77);
  auto* in = b.add_interests();
  in->set_group("tracks");
  in->set_distance(1);
  in->set_via(0x88);
  in->set_subscriber(0x99);
  d.push_back(wire::encode(b));

  wire::Summary s;
  s.set_node(0x67);
  s.add_wants("tracks");
  d.push_back(wire::encode(s));

  wire::CodedSymbol c;
  c.set_group("tracks");
  c.set_publisher(kPublisher);
  c.set_seq(8);
  c.set_block(2);
  c.set_total_length(200'000);
  c.set_digest(0x99);
  c.set_seed(5);
  c.set_payload(std::string(1400, 'c'));
  d.push_back(wire::encode(c));

  wire::WindowSymbol ws;
  ws.set_group("tracks");
  ws.set_publisher(kPublisher);
  ws.set_first_seq(3);
  ws.set_count(4);
  ws.set_seed(6);
  ws.set_payload(std::string(200, 'w'));
  d.push_back(wire::encode(ws));

  const std::vector<std::vector<std::uint8_t>> items = {wire::encode(small(20)), wire::encode(small(21)),
                                                        wire::encode(b)};
  d.push_back(wire::encode_bundle(items));

  // A group reference learnt from a beacon's Newest entry, not from a frame.
  wire::Beacon announces;
  announces.set_node(0x0e0e0e0e);
  auto* alerts = announces.add_newest();
  alerts->set_group("alerts");
  alerts->set_publisher(0x0e0e0e0e);
  alerts->set_seq(1);
  alerts->set_group_ref(2);
  d.push_back(wire::encode(announces));
  wire::DataFragment alert = small(1);
  alert.set_group("alerts");
  alert.set_publisher(0x0e0e0e0e);
  d.push_back(wire::encode(alert, wire::DataEncoding{2, false, false}));

  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i == 1 || i == 9) continue;  // they need the references learnt from [0] and [8]
    EXPECT_TRUE(decodes(d[i])) << "datagram " << i << " must be valid";
  }

  const fs::path pcap = dir_ / "kinds.pcap";
  write_pcap(pcap, d);
  const auto rows = run_tshark(pcap, false);
  ASSERT_EQ(rows.size(), d.size()) << "tshark ran the dissector over every frame";
  for (const auto& r : rows) EXPECT_EQ(r.at("dissem.malformed"), "") << r.at("dissem.kind_name");

  EXPECT_EQ(rows[0].at("dissem.kind_name"), "Data");
  EXPECT_EQ(rows[0].at("dissem.data.publisher"), "0x0a0b0c0d");
  EXPECT_EQ(rows[0].at("dissem.data.group"), "tracks");
  EXPECT_EQ(rows[0].at("dissem.data.seq"), "7");
  EXPECT_EQ(rows[0].at("dissem.data.offset"), "1400");
  EXPECT_EQ(rows[0].at("dissem.data.total_length"), "4200");
  EXPECT_EQ(rows[0].at("dissem.data.tag"), "unit-7");
  EXPECT_EQ(rows[0].at("dissem.data.hops"), "2");
  EXPECT_EQ(rows[0].at("dissem.data.forwarder"), "0x11223344");
  EXPECT_EQ(rows[0].at("dissem.data.payload_length"), "1400");
  EXPECT_EQ(rows[0].at("dissem.data.repair"), "0");

  EXPECT_EQ(rows[1].at("dissem.kind_name"), "Data");
  EXPECT_EQ(rows[1].at("dissem.data.group"), "tracks") << "the name learnt from the named frame";
  EXPECT_EQ(rows[1].at("dissem.data.seq"), "8");
  EXPECT_EQ(rows[1].at("dissem.data.repair"), "1");

  EXPECT_EQ(rows[2].at("dissem.kind_name"), "MissingFragmentRequest");
  EXPECT_EQ(rows[2].at("dissem.missingfragmentrequest.requester"), "0x00000055");
  EXPECT_EQ(rows[2].at("dissem.messagewants.seq"), "9");

  EXPECT_EQ(rows[3].at("dissem.kind_name"), "Beacon");
  EXPECT_EQ(rows[3].at("dissem.beacon.node"), "0x00000066");
  EXPECT_EQ(rows[3].at("dissem.beacon.seq"), "42");
  EXPECT_EQ(rows[3].at("dissem.interest.via"), "0x00000088");

  EXPECT_EQ(rows[4].at("dissem.kind_name"), "Summary");
  EXPECT_EQ(rows[4].at("dissem.summary.node"), "0x00000067");
  EXPECT_EQ(rows[4].at("dissem.summary.wants"), "tracks");

  EXPECT_EQ(rows[5].at("dissem.kind_name"), "CodedSymbol");
  EXPECT_EQ(rows[5].at("dissem.codedsymbol.seq"), "8");
  EXPECT_EQ(rows[5].at("dissem.codedsymbol.block"), "2");

  EXPECT_EQ(rows[6].at("dissem.kind_name"), "WindowSymbol");
  EXPECT_EQ(rows[6].at("dissem.windowsymbol.first_seq"), "3");
  EXPECT_EQ(rows[6].at("dissem.windowsymbol.count"), "4");

  EXPECT_EQ(rows[7].at("dissem.kind_name"), "Bundle");
  EXPECT_EQ(rows[7].at("dissem.bundle.items"), "3");
  EXPECT_EQ(rows[7].at("dissem.data.seq"), "20") << "the first item";

  EXPECT_EQ(rows[9].at("dissem.kind_name"), "Data");
  EXPECT_EQ(rows[9].at("dissem.data.group"), "alerts") << "the reference a beacon advertised";
}

TEST_F(WiresharkDissector, MalformedDatagramsAreFlaggedAsDissemdRefusesThem) {
  std::vector<std::vector<std::uint8_t>> bad;
  auto valid = wire::encode(small(5));
  auto wrong_version = valid;
  wrong_version[0] = 0x21;
  bad.push_back(wrong_version);
  auto cut = valid;
  cut.resize(9);  // into the group's name
  bad.push_back(cut);
  auto lonely = wire::encode_bundle(std::vector<std::vector<std::uint8_t>>{valid, valid});
  // One item only: the second's bytes dropped, the first's length kept.
  lonely.resize(1 + 1 + valid.size());
  bad.push_back(lonely);
  // A beacon whose `newest` entry runs past the end of the datagram.
  bad.push_back(std::vector<std::uint8_t>{0x33, 0x1a, 0x05, 0x0a});
  bad.push_back(std::vector<std::uint8_t>{0x3f, 0x00});  // an unknown kind
  for (std::size_t i = 0; i < bad.size(); ++i) EXPECT_FALSE(decodes(bad[i])) << "dissemd refuses " << i << " too";

  const fs::path pcap = dir_ / "bad.pcap";
  write_pcap(pcap, bad);
  const auto rows = run_tshark(pcap, false);
  ASSERT_EQ(rows.size(), bad.size());
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_NE(rows[i].at("dissem.malformed"), "") << "datagram " << i;
  EXPECT_NE(rows[0].at("dissem.malformed").find("version 2"), std::string::npos) << rows[0].at("dissem.malformed");
}

TEST_F(WiresharkDissector, TheNetworkKeyTrailerIsShownWhenThePreferenceSaysSo) {
  auto datagram = wire::encode(small(6));
  engine::SymmetricKey key{};
  key.fill(7);
  engine::seal_datagram(datagram, key, 1, 0xabcdef01, 1'000'000);
  const fs::path pcap = dir_ / "sealed.pcap";
  write_pcap(pcap, {datagram});
  const auto sealed = run_tshark(pcap, true);
  ASSERT_EQ(sealed.size(), 1u);
  EXPECT_EQ(sealed[0].at("dissem.malformed"), "");
  EXPECT_EQ(sealed[0].at("dissem.data.seq"), "6");
  EXPECT_EQ(sealed[0].at("dissem.trailer.sender"), "0xabcdef01");
  EXPECT_EQ(sealed[0].at("dissem.data.payload_length"), "10") << "the trailer is not payload";
}

// The dissector's copy of proto/wire.proto (its SCHEMA table) names every
// field of every message with its number and a matching type.
TEST(WiresharkDissectorSchema, MatchesWireProto) {
  auto slurp = [](const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string proto = slurp(std::string(DISSEM_SOURCE_DIR) + "/proto/wire.proto");
  const std::string lua = slurp(kScript);
  ASSERT_FALSE(proto.empty());
  ASSERT_FALSE(lua.empty());
  // message -> number -> (name, lua type) from the .proto, DataFragment apart (hand-framed).
  std::map<std::string, std::map<int, std::pair<std::string, std::string>>> expected;
  const std::map<std::string, std::string> types = {{"uint32", "u"}, {"uint64", "u"},  {"bool", "b"},
                                                    {"fixed32", "f32"}, {"fixed64", "f64"}, {"string", "s"},
                                                    {"bytes", "y"}};
  std::istringstream lines(proto);
  std::string line, message;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_search(line, m, std::regex(R"(^message (\w+) \{)"))) {
      message = m[1];
      continue;
    }
    if (message.empty() || message == "DataFragment") continue;
    if (std::regex_search(line, m, std::regex(R"(^\s+(repeated |optional )?(\w+) (\w+) = (\d+))"))) {
      const std::string rep = m[1], type = m[2], name = m[3];
      std::string t = types.contains(type) ? types.at(type) : "m";
      if (rep == "repeated " && (type == "uint64" || type == "uint32")) t = "pu";
      expected[message][std::stoi(m[4])] = {name, t};
    }
  }
  ASSERT_GE(expected.size(), 10u);
  for (const auto& [msg, fields] : expected) {
    std::string key = "  ";
    key += msg;
    key += " = {";
    const auto at = lua.find(key);
    ASSERT_NE(at, std::string::npos) << msg << " is missing from the dissector's SCHEMA";
    // The message's table ends with its last field's "} }".
    const std::string body = lua.substr(at, lua.find("} }", at) - at);
    for (const auto& [number, field] : fields) {
      std::string entry = "[";
      entry += std::to_string(number);
      entry += "] = {\"";
      entry += field.first;
      entry += "\", \"";
      entry += field.second;
      entry += "\"";
      EXPECT_NE(body.find(entry), std::string::npos) << msg << ": " << entry;
    }
    // No field the .proto lacks.
    std::size_t count = 0;
    for (std::size_t p = body.find("] = {\""); p != std::string::npos; p = body.find("] = {\"", p + 1)) ++count;
    EXPECT_EQ(count, fields.size()) << msg;
  }
}

}  // namespace wireshark_dissector_test
