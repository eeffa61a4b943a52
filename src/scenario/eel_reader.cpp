#include "scenario/eel_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "config/setting_text.h"

namespace dissem::scenario {
namespace {

[[noreturn]] void bad(std::size_t line, const std::string& what) {
  throw std::invalid_argument(fmt::format("line {}: {}", line, what));
}

// The whole text as a finite number (config/setting_text.h: no "inf" or
// "nan", no sign on whole numbers), as dissem-emu reads the same fields.
bool parse_number(std::string_view text, double& out) {
  const auto v = read_finite_number(text);
  if (v) out = *v;
  return v.has_value();
}

bool parse_number(std::string_view text, std::int64_t& out) {
  const auto v = read_whole_number(text);
  if (!v || *v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
  out = static_cast<std::int64_t>(*v);
  return true;
}

int nem(std::string_view token, std::size_t line) {
  if (!token.starts_with("nem:")) bad(line, fmt::format("expected nem:<id>, found '{}'", token));
  const auto value = read_whole_number(token.substr(4));
  if (!value) bad(line, fmt::format("bad NEM id in '{}'", token));
  if (*value < 1 || *value > 65535) bad(line, fmt::format("NEM id {} outside 1..65535", *value));
  return static_cast<int>(*value);
}

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto at = text.find(sep, start);
    out.emplace_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

LinkParams entry_params(const std::vector<std::string>& parts, const std::string& entry, std::size_t line) {
  double lat = 0, jit = 0, loss = 0, dup = 0;
  std::int64_t ucast = 0, bcast = 0;
  if (!parse_number(parts[1], lat) || !parse_number(parts[2], jit) || !parse_number(parts[3], loss) ||
      !parse_number(parts[4], dup) || !parse_number(parts[5], ucast) || !parse_number(parts[6], bcast))
    bad(line, fmt::format("non-numeric field in '{}'", entry));
  if (std::min({lat, jit, loss, dup}) < 0 || ucast < 0 || bcast < 0 || loss > 100)
    bad(line, fmt::format("out-of-range field in '{}' (loss 0..100, others >= 0)", entry));
  return {lat, jit, loss, dup, ucast, bcast};
}

}  // namespace

std::vector<LinkEvent> read_eel(std::string_view text, std::string_view convention) {
  if (convention != "sender-first" && convention != "receiver-first")
    throw std::invalid_argument(fmt::format("unknown EEL convention '{}'", convention));
  std::vector<LinkEvent> events;
  std::size_t number = 0;
  for (const auto& raw : split(text, '\n')) {
    ++number;
    std::istringstream words(raw.substr(0, raw.find('#')));
    std::vector<std::string> fields;
    for (std::string w; words >> w;) fields.push_back(w);
    if (fields.empty()) continue;
    if (fields.size() < 4) bad(number, "expected '<time> nem:<id> commeffect nem:<id>,...'");
    double t = 0;
    if (!parse_number(fields[0], t)) bad(number, fmt::format("bad time '{}'", fields[0]));
    if (t < 0) bad(number, fmt::format("negative time {}", fields[0]));
    const int lead = nem(fields[1], number);
    if (fields[2] != "commeffect") bad(number, fmt::format("only commeffect events are supported, found '{}'", fields[2]));
    for (std::size_t i = 3; i < fields.size(); ++i) {
      const auto parts = split(fields[i], ',');
      if (parts.size() != 7)
        bad(number, fmt::format("commeffect entry '{}' needs 7 comma-separated fields "
                                "nem:<id>,latency,jitter,loss,dup,unicast_bps,broadcast_bps", fields[i]));
      const int other = nem(parts[0], number);
      if (other == lead) bad(number, fmt::format("nem:{} has an entry for itself", lead));
      const LinkParams params = entry_params(parts, fields[i], number);
      if (convention == "receiver-first")
        events.push_back({t, other, lead, params});
      else
        events.push_back({t, lead, other, params});
    }
  }
  return events;
}

}  // namespace dissem::scenario
