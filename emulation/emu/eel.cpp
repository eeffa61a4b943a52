#include "eel.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include <fmt/format.h>

#include "scenario/eel_reader.h"

namespace dissem::emu {
namespace {

TimeNs to_ns(double seconds) { return static_cast<TimeNs>(std::llround(seconds * static_cast<double>(kNsPerSecond))); }

CommEffectEvent event_of(const scenario::EelEntry& e) {
  CommEffectEvent out;
  out.at = to_ns(e.time_s);
  out.sender = static_cast<NodeId>(e.lead);  // sender-first, as EMANE's eelloadercommeffect reads it
  out.receiver = static_cast<NodeId>(e.other);
  out.line = e.line;
  out.effects.latency = to_ns(e.params.latency_s);
  out.effects.jitter = to_ns(e.params.jitter_s);
  out.effects.loss_pct = e.params.loss_pct;
  out.effects.duplicate_pct = e.params.dup_pct;
  out.effects.unicast_bps = static_cast<std::uint64_t>(e.params.unicast_bps);
  out.effects.broadcast_bps = static_cast<std::uint64_t>(e.params.broadcast_bps);
  return out;
}

}  // namespace

EelScenario parse_eel(std::istream& in, std::string_view source, std::size_t nodes) {
  scenario::EelReading how;
  how.max_nem = static_cast<int>(std::min<std::size_t>(nodes, std::numeric_limits<int>::max()));
  how.count_other_events = true;  // EMANE's PHY events: meaningful to EMANE, not to us
  scenario::EelText read;
  std::string raw;
  // A bound on the lines read, so a runaway input (a device, a pipe) ends;
  // read line by line, so a long file of other events costs no memory.
  constexpr std::size_t kMaxLines = 10'000'000;
  for (std::size_t line = 1; line <= kMaxLines && std::getline(in, raw); ++line) {
    try {
      scenario::read_eel_line(raw, line, how, read);
    } catch (const scenario::EelSyntaxError& e) {
      throw EelError(fmt::format("{}:{}: {}", source, e.line(), e.detail()));
    }
  }
  if (in.bad()) throw EelError(fmt::format("{}: read error", source));
  EelScenario scenario;
  scenario.ignored = std::move(read.ignored);
  scenario.events.reserve(read.entries.size());
  for (const auto& e : read.entries) scenario.events.push_back(event_of(e));
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
