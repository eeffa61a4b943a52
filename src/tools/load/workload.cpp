#include "tools/load/workload.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

#include "config/setting_text.h"
#include "tools/load/stamped_payload.h"

namespace dissem::load {
namespace {

constexpr std::size_t kMaxMessages = 1'000'000;
constexpr std::uint64_t kMaxTotalBytes = 4ull << 30;
constexpr std::size_t kMaxMessageBytes = 1ull << 30;
constexpr std::size_t kMaxNameLength = 32;

[[noreturn]] void fail(std::string_view stream, const std::string& what) {
  throw std::invalid_argument("stream '" + std::string(stream) + "': " + what);
}

bool is_separator(char c) { return c == ' ' || c == '\t' || c == ','; }

std::vector<std::string_view> split_items(std::string_view text) {
  std::vector<std::string_view> items;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_separator(text[i])) ++i;
    std::size_t end = i;
    while (end < text.size() && !is_separator(text[end])) ++end;
    if (end > i) items.push_back(text.substr(i, end - i));
    i = end;
  }
  return items;
}

std::uint64_t whole(std::string_view stream, std::string_view key, std::string_view text, std::uint64_t max) {
  const auto v = read_whole_number(text);
  if (!v || *v > max)
    fail(stream, std::string(key) + "=" + std::string(text) + " is not a whole number in 0.." + std::to_string(max));
  return *v;
}

double real(std::string_view stream, std::string_view key, std::string_view text, double max) {
  const auto v = read_finite_number(text);
  if (!v || *v < 0 || *v > max)
    fail(stream, std::string(key) + "=" + std::string(text) + " is not a number in 0.." + std::to_string(max));
  return *v;
}

bool yes_no(std::string_view stream, std::string_view text) {
  if (text == "yes" || text == "true" || text == "1") return true;
  if (text == "no" || text == "false" || text == "0") return false;
  fail(stream, "replace=" + std::string(text) + " is not yes or no");
}

void check_name(std::string_view name) {
  const bool ok = !name.empty() && name.size() <= kMaxNameLength &&
                  std::all_of(name.begin(), name.end(), [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                  });
  if (!ok) fail(name, "a name is 1..32 characters of [A-Za-z0-9_.-]");
}

void set_item(StreamSpec& s, std::string_view key, std::string_view value) {
  constexpr auto u32 = std::numeric_limits<std::uint32_t>::max();
  if (key == "count") s.count = static_cast<std::uint32_t>(whole(s.name, key, value, kMaxMessages));
  else if (key == "bytes") s.bytes = whole(s.name, key, value, kMaxMessageBytes);
  else if (key == "rate_hz") s.rate_hz = real(s.name, key, value, 1e6);
  else if (key == "start_s") s.start_s = real(s.name, key, value, 86400);
  else if (key == "priority") s.priority = static_cast<std::uint32_t>(whole(s.name, key, value, u32));
  else if (key == "sources") s.sources = static_cast<std::uint32_t>(whole(s.name, key, value, 65535));
  else if (key == "lifetime_ms") s.lifetime_ms = static_cast<std::uint32_t>(whole(s.name, key, value, u32));
  else if (key == "replace") s.replace = yes_no(s.name, value);
  else fail(s.name, "unknown item '" + std::string(key) + "' (count, bytes, rate_hz, start_s, priority, sources, "
                    "lifetime_ms, replace)");
}

void check_stream(const StreamSpec& s) {
  if (s.count == 0) fail(s.name, "count=N (1 or more) is required");
  if (s.bytes < kStampBytes)
    fail(s.name, "bytes=N is required, at least " + std::to_string(kStampBytes) + " (the stamp)");
  if (s.count > 1 && s.rate_hz <= 0) fail(s.name, "rate_hz above 0 is required for more than one message");
  if (s.sources == 0 || s.sources > s.count) fail(s.name, "sources must be 1..count");
}

}  // namespace

double StreamSpec::at_s(std::uint32_t index) const {
  return rate_hz > 0 ? start_s + static_cast<double>(index) / rate_hz : start_s;
}

std::string tag_of(const StreamSpec& stream, std::uint32_t index, TagScheme scheme) {
  if (scheme == TagScheme::None) return {};
  if (scheme == TagScheme::Stream || stream.sources == 1) return stream.name;
  return stream.name + "/" + std::to_string(stream.source_of(index));
}

TagScheme parse_tag_scheme(std::string_view text) {
  if (text == "stream") return TagScheme::Stream;
  if (text == "source") return TagScheme::Source;
  if (text == "none") return TagScheme::None;
  throw std::invalid_argument("tag scheme '" + std::string(text) + "' is not stream, source or none");
}

std::size_t Workload::total_messages() const {
  std::size_t n = 0;
  for (const auto& s : streams) n += s.count;
  return n;
}

std::uint64_t Workload::total_bytes() const {
  std::uint64_t n = 0;
  for (const auto& s : streams) n += std::uint64_t{s.count} * s.bytes;
  return n;
}

double Workload::duration_s() const {
  double end = 0;
  for (const auto& s : streams)
    if (s.count > 0) end = std::max(end, s.at_s(s.count - 1));
  return end;
}

StreamSpec parse_stream(std::string_view text) {
  const auto items = split_items(text);
  if (items.empty()) throw std::invalid_argument("stream: empty (expected NAME count=N bytes=N rate_hz=R ...)");
  StreamSpec s;
  s.name = std::string(items[0]);
  check_name(s.name);
  for (std::size_t i = 1; i < items.size(); ++i) {
    const auto eq = items[i].find('=');
    if (eq == std::string_view::npos) {
      if (items[i] != "replace") {
        // Appended, not concatenated: GCC 12 -O3 raises -Wrestrict on "'" + std::string(...).
        std::string what = "'";
        what += items[i];
        what += "' is not key=value (or the flag replace)";
        fail(s.name, what);
      }
      s.replace = true;
      continue;
    }
    set_item(s, items[i].substr(0, eq), items[i].substr(eq + 1));
  }
  check_stream(s);
  return s;
}

Workload parse_workload(std::string_view text) {
  Workload w;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    line = line.substr(0, line.find('#'));
    if (!split_items(line).empty()) w.streams.push_back(parse_stream(line));
    start = end + 1;
  }
  check_workload(w);
  return w;
}

Workload load_workload_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("plan: cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return parse_workload(text.str());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("plan " + path + ": " + e.what());
  }
}

Workload workload_from_options(const std::string& plan_file, const std::vector<std::string>& streams) {
  Workload w;
  if (!plan_file.empty()) w = load_workload_file(plan_file);
  for (const auto& text : streams) w.streams.push_back(parse_stream(text));
  if (!w.streams.empty()) check_workload(w);
  return w;
}

void check_workload(const Workload& workload) {
  if (workload.streams.empty()) throw std::invalid_argument("a workload needs at least one stream");
  std::set<std::string_view> names;
  for (const auto& s : workload.streams) {
    check_stream(s);
    if (!names.insert(s.name).second) fail(s.name, "the name is used twice");
  }
  if (workload.total_messages() > kMaxMessages) throw std::invalid_argument("a workload has at most 1,000,000 messages");
  if (workload.total_bytes() > kMaxTotalBytes) throw std::invalid_argument("a workload has at most 4 GiB in all");
}

std::int64_t offset_us(double at_s) { return static_cast<std::int64_t>(std::llround(at_s * 1e6)); }

std::vector<Planned> schedule(const Workload& workload) {
  std::vector<Planned> out;
  out.reserve(workload.total_messages());
  for (std::uint32_t s = 0; s < workload.streams.size(); ++s) {
    const StreamSpec& spec = workload.streams[s];
    for (std::uint32_t i = 0; i < spec.count; ++i) out.push_back({spec.at_s(i), s, i, spec.bytes});
  }
  // Stable: equal times keep stream order, and a stream's own order.
  std::stable_sort(out.begin(), out.end(), [](const Planned& a, const Planned& b) { return a.at_s < b.at_s; });
  return out;
}

}  // namespace dissem::load
