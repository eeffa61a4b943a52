#include "scenario/eel_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "config/setting_text.h"

namespace dissem::scenario {
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

// The fields of one line, each refusal naming the field.
class LineReader {
 public:
  LineReader(std::size_t line, int max_nem) : line_(line), max_nem_(max_nem) {}

  [[noreturn]] void fail(const std::string& what) const { throw EelSyntaxError(line_, what); }

  double seconds(std::string_view field, std::string_view text) const {
    const auto v = read_finite_number(text);
    if (!v) fail(fmt::format("field '{}': '{}' is not a number of seconds", field, text));
    if (*v < 0) fail(fmt::format("field '{}': {} is negative", field, text));
    if (*v > 1e9) fail(fmt::format("field '{}': {} seconds is too large", field, text));
    return *v;
  }

  double percent(std::string_view field, std::string_view text) const {
    const auto v = read_finite_number(text);
    if (!v) fail(fmt::format("field '{}': '{}' is not a number", field, text));
    if (*v < 0 || *v > 100) fail(fmt::format("field '{}': {} is not a percentage in 0..100", field, text));
    return *v;
  }

  std::int64_t bitrate(std::string_view field, std::string_view text) const {
    const auto v = read_whole_number(text);
    if (!v || *v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail(fmt::format("field '{}': '{}' is not a non-negative whole number of bits per second", field, text));
    return static_cast<std::int64_t>(*v);
  }

  int nem(std::string_view field, std::string_view text) const {
    if (text.substr(0, 4) != "nem:") fail(fmt::format("field '{}': '{}' is not of the form nem:<id>", field, text));
    const auto v = read_whole_number(text.substr(4));
    if (!v) fail(fmt::format("field '{}': '{}' has no numeric nem id", field, text));
    if (*v < 1 || *v > static_cast<std::uint64_t>(max_nem_))
      fail(fmt::format("field '{}': nem id {} is not in 1..{}", field, *v, max_nem_));
    return static_cast<int>(*v);
  }

 private:
  std::size_t line_;
  int max_nem_;
};

// One "nem:Y,latency,jitter,loss,dup,unicast,broadcast" entry of a line led by `lead`.
EelEntry read_entry(const LineReader& r, std::string_view entry, double at, int lead, std::size_t line,
                    std::string_view entry_nem) {
  const auto fields = split(entry, ',');
  if (fields.size() != 7)
    r.fail(fmt::format("commeffect entry '{}' has {} fields; expected 7: "
                       "nem:<id>,latency,jitter,loss,duplicate,unicast_bps,broadcast_bps",
                       entry, fields.size()));
  EelEntry e;
  e.time_s = at;
  e.lead = lead;
  e.line = line;
  e.other = r.nem(entry_nem, fields[0]);
  if (e.other == lead) r.fail(fmt::format("entry '{}' sets an effect of nem {} on itself", entry, lead));
  e.params.latency_s = r.seconds("latency", fields[1]);
  e.params.jitter_s = r.seconds("jitter", fields[2]);
  e.params.loss_pct = r.percent("loss", fields[3]);
  e.params.dup_pct = r.percent("duplicate", fields[4]);
  e.params.unicast_bps = r.bitrate("unicast_bps", fields[5]);
  e.params.broadcast_bps = r.bitrate("broadcast_bps", fields[6]);
  return e;
}

}  // namespace

EelSyntaxError::EelSyntaxError(std::size_t line, const std::string& detail)
    : std::invalid_argument(fmt::format("line {}: {}", line, detail)), line_(line), detail_(detail) {}

void read_eel_line(std::string_view raw, std::size_t line, const EelReading& how, EelText& out) {
  if (const auto hash = raw.find('#'); hash != std::string_view::npos) raw = raw.substr(0, hash);
  const auto tokens = split_whitespace(raw);
  if (tokens.empty()) return;
  const LineReader r(line, how.max_nem);
  if (tokens.size() < 3) r.fail("expected '<time> nem:<id> <event type> ...'");
  if (!equals_ignoring_case(tokens[2], "commeffect")) {
    if (!how.count_other_events) r.fail(fmt::format("only commeffect events are supported, found '{}'", tokens[2]));
    ++out.ignored[std::string(tokens[2])];
    return;
  }
  const double at = r.seconds("time", tokens[0]);
  const int lead = r.nem(how.lead_sends ? "sending nem" : "receiving nem", tokens[1]);
  if (tokens.size() < 4) r.fail("commeffect event has no nem:<id>,... entries");
  const std::string_view entry_nem = how.lead_sends ? "receiving nem" : "sending nem";
  for (std::size_t i = 3; i < tokens.size(); ++i) out.entries.push_back(read_entry(r, tokens[i], at, lead, line, entry_nem));
}

EelText read_eel_text(std::string_view text, const EelReading& how) {
  EelText out;
  std::size_t line = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    read_eel_line(text.substr(pos, end - pos), ++line, how, out);
    pos = end + 1;
  }
  return out;
}

std::vector<LinkEvent> read_eel(std::string_view text, std::string_view convention) {
  if (convention != "sender-first" && convention != "receiver-first")
    throw std::invalid_argument(fmt::format("unknown EEL convention '{}'", convention));
  EelReading how;
  how.lead_sends = convention != "receiver-first";
  std::vector<LinkEvent> events;
  for (const EelEntry& e : read_eel_text(text, how).entries) {
    if (!how.lead_sends)
      events.push_back({e.time_s, e.other, e.lead, e.params});
    else
      events.push_back({e.time_s, e.lead, e.other, e.params});
  }
  return events;
}

}  // namespace dissem::scenario
