#include "eel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "config/setting_text.h"

namespace dissem::emu {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t pos = 0;;) {
    const std::size_t next = text.find(separator, pos);
    if (next == std::string_view::npos) {
      parts.push_back(text.substr(pos));
      return parts;
    }
    parts.push_back(text.substr(pos, next - pos));
    pos = next + 1;
  }
}

std::vector<std::string_view> split_whitespace(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    const std::size_t start = pos;
    while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos > start) tokens.push_back(text.substr(start, pos - start));
  }
  return tokens;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}


// Reports problems as "<source>:<line>: <what>".
class LineParser {
 public:
  LineParser(std::string_view source, std::size_t line, std::size_t nodes)
      : source_(source), line_(line), nodes_(nodes) {}

  [[noreturn]] void fail(std::string_view what) const {
    throw EelError(fmt::format("{}:{}: {}", source_, line_, what));
  }

  TimeNs seconds(std::string_view field, std::string_view text) const {
    const auto v = read_finite_number(text);
    if (!v) fail(fmt::format("field '{}': '{}' is not a number of seconds", field, text));
    if (*v < 0) fail(fmt::format("field '{}': {} is negative", field, text));
    if (*v > 1e9) fail(fmt::format("field '{}': {} seconds is too large", field, text));
    return static_cast<TimeNs>(std::llround(*v * static_cast<double>(kNsPerSecond)));
  }

  double percent(std::string_view field, std::string_view text) const {
    const auto v = read_finite_number(text);
    if (!v) fail(fmt::format("field '{}': '{}' is not a number", field, text));
    if (*v < 0 || *v > 100) fail(fmt::format("field '{}': {} is not a percentage in 0..100", field, text));
    return *v;
  }

  std::uint64_t bitrate(std::string_view field, std::string_view text) const {
    const auto v = read_whole_number(text);
    if (!v) fail(fmt::format("field '{}': '{}' is not a non-negative whole number of bits per second", field, text));
    return *v;
  }

  NodeId nem(std::string_view field, std::string_view text) const {
    if (text.substr(0, 4) != "nem:") fail(fmt::format("field '{}': '{}' is not of the form nem:<id>", field, text));
    const auto v = read_whole_number(text.substr(4));
    if (!v) fail(fmt::format("field '{}': '{}' has no numeric nem id", field, text));
    if (*v < 1 || *v > nodes_) fail(fmt::format("field '{}': nem id {} is not in 1..{}", field, *v, nodes_));
    return static_cast<NodeId>(*v);
  }

 private:
  std::string_view source_;
  std::size_t line_;
  std::size_t nodes_;
};

// One "nem:Y,latency,jitter,loss,dup,unicast,broadcast" entry of a commeffect
// line whose leading nem is `sender`.
CommEffectEvent parse_entry(const LineParser& p, std::string_view entry, TimeNs at, NodeId sender,
                            std::size_t line) {
  const auto fields = split(entry, ',');
  if (fields.size() != 7)
    p.fail(fmt::format("commeffect entry '{}' has {} fields; expected 7: "
                       "nem:<id>,latency,jitter,loss,duplicate,unicast_bps,broadcast_bps",
                       entry, fields.size()));
  CommEffectEvent e;
  e.at = at;
  e.sender = sender;
  e.line = line;
  e.receiver = p.nem("receiving nem", fields[0]);
  if (e.receiver == sender) p.fail(fmt::format("entry '{}' sets an effect of nem {} on itself", entry, sender));
  e.effects.latency = p.seconds("latency", fields[1]);
  e.effects.jitter = p.seconds("jitter", fields[2]);
  e.effects.loss_pct = p.percent("loss", fields[3]);
  e.effects.duplicate_pct = p.percent("duplicate", fields[4]);
  e.effects.unicast_bps = p.bitrate("unicast_bps", fields[5]);
  e.effects.broadcast_bps = p.bitrate("broadcast_bps", fields[6]);
  return e;
}

}  // namespace

EelScenario parse_eel(std::istream& in, std::string_view source, std::size_t nodes) {
  EelScenario scenario;
  std::string raw;
  // A bound on the lines read, so a runaway input (a device, a pipe) ends.
  constexpr std::size_t kMaxLines = 10'000'000;
  for (std::size_t line = 1; line <= kMaxLines && std::getline(in, raw); ++line) {
    std::string_view text = raw;
    if (const auto hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    const auto tokens = split_whitespace(text);
    if (tokens.empty()) continue;
    const LineParser p(source, line, nodes);
    if (tokens.size() < 3) p.fail("expected '<time> nem:<id> <event type> ...'");
    if (!equals_ignoring_case(tokens[2], "commeffect")) {
      // Another EMANE event type: meaningful to EMANE's PHY, not to us.
      ++scenario.ignored[std::string(tokens[2])];
      continue;
    }
    const TimeNs at = p.seconds("time", tokens[0]);
    const NodeId sender = p.nem("sending nem", tokens[1]);
    if (tokens.size() < 4) p.fail("commeffect event has no nem:<id>,... entries");
    for (std::size_t i = 3; i < tokens.size(); ++i)
      scenario.events.push_back(parse_entry(p, tokens[i], at, sender, line));
  }
  if (in.bad()) throw EelError(fmt::format("{}: read error", source));
  // Times need not be in order in the file; equal times keep file order.
  std::stable_sort(scenario.events.begin(), scenario.events.end(),
                   [](const CommEffectEvent& a, const CommEffectEvent& b) { return a.at < b.at; });
  return scenario;
}

EelScenario load_eel_file(const std::string& path, std::size_t nodes) {
  std::ifstream in(path);
  if (!in) throw EelError(fmt::format("{}: cannot open EEL file", path));
  return parse_eel(in, path, nodes);
}

}  // namespace dissem::emu
