#include "tools/load/reception_log.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include <fmt/format.h>

#include "tools/load/json_text.h"
#include "tools/load/stamped_payload.h"

namespace dissem::load {
namespace {

std::string number_or_null(std::optional<double> v) {
  return v ? fmt::format("{:.6f}", *v) : std::string("null");
}

}  // namespace

std::optional<double> quantile(std::vector<double> values, double q) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size())));
  return values[rank == 0 ? 0 : rank - 1];
}

ReceptionLog::ReceptionLog(Workload plan, std::size_t expected)
    : plan_(std::move(plan)), expected_(plan_.streams.empty() ? expected : plan_.total_messages()) {}

ReceptionLog::Outcome ReceptionLog::add(std::string_view publisher, std::span<const std::uint8_t> payload,
                                        std::uint64_t now_unix_us, double since_start_s) {
  const auto stamp = check_payload(payload);
  if (!stamp) {
    ++content_errors_;
    return Outcome::ContentError;
  }
  if (!seen_.emplace(std::string(publisher), stamp->stream, stamp->index).second) {
    ++duplicates_;
    return Outcome::Duplicate;
  }
  if (!first_rx_s_) first_rx_s_ = since_start_s;
  last_completion_s_ = since_start_s;
  const double latency_s =
      (static_cast<double>(now_unix_us) - static_cast<double>(stamp->published_unix_us)) / 1e6;
  records_.push_back({std::string(publisher), stamp->stream, stamp->index, payload.size(), latency_s,
                      static_cast<double>(now_unix_us) / 1e6});
  if (!plan_end_unix_us_ && stamp->stream < plan_.streams.size()) {
    // The publisher stamps each message with its start plus the message's
    // planned offset (in whole µs), so the start, and the end, follow.
    const auto& spec = plan_.streams[stamp->stream];
    const std::int64_t start_us = static_cast<std::int64_t>(stamp->published_unix_us) - offset_us(spec.at_s(stamp->index));
    plan_end_unix_us_ = static_cast<std::uint64_t>(start_us + offset_us(plan_.duration_s()));
  }
  return Outcome::Accepted;
}

std::string ReceptionLog::stream_name(std::uint32_t stream) const {
  return stream < plan_.streams.size() ? plan_.streams[stream].name : fmt::format("stream-{}", stream);
}

std::string ReceptionLog::stream_json(std::uint32_t stream) const {
  std::vector<double> latencies;
  std::uint64_t bytes = 0;
  std::set<std::uint32_t> finals;  // sources whose final message arrived
  const StreamSpec* spec = stream < plan_.streams.size() ? &plan_.streams[stream] : nullptr;
  for (const auto& r : records_) {
    if (r.stream != stream) continue;
    latencies.push_back(r.latency_s);
    bytes += r.bytes;
    if (spec != nullptr && r.index + spec->sources >= spec->count) finals.insert(spec->source_of(r.index));
  }
  const double sum = std::accumulate(latencies.begin(), latencies.end(), 0.0);
  const std::optional<double> mean =
      latencies.empty() ? std::nullopt : std::optional<double>(sum / static_cast<double>(latencies.size()));
  const std::optional<double> max =
      latencies.empty() ? std::nullopt : std::optional<double>(*std::max_element(latencies.begin(), latencies.end()));
  return fmt::format(
      R"({}:{{"id":{},"expected":{},"received":{},"bytes":{},"sources":{},"final_updates_received":{},)"
      R"("latency_mean_s":{},"latency_p50_s":{},"latency_p95_s":{},"latency_max_s":{}}})",
      json_string(stream_name(stream)), stream, spec ? std::to_string(spec->count) : "null", latencies.size(), bytes,
      spec ? std::to_string(spec->sources) : "null", spec ? std::to_string(finals.size()) : "null",
      number_or_null(mean), number_or_null(quantile(latencies, 0.5)), number_or_null(quantile(latencies, 0.95)),
      number_or_null(max));
}

std::string ReceptionLog::streams_json() const {
  std::set<std::uint32_t> ids;
  for (std::uint32_t s = 0; s < plan_.streams.size(); ++s) ids.insert(s);
  for (const auto& r : records_) ids.insert(r.stream);
  std::string out = "{";
  for (auto id : ids) {
    if (out.size() > 1) out += ',';
    out += stream_json(id);
  }
  return out + "}";
}

std::string ReceptionLog::json_members() const {
  std::string messages;
  std::uint64_t bytes = 0;
  for (const auto& r : records_) {
    if (!messages.empty()) messages += ',';
    messages += fmt::format(R"({{"publisher":{},"stream":{},"index":{},"bytes":{},"latency_s":{:.6f},)"
                            R"("completed_unix":{:.6f}}})",
                            json_string(r.publisher), json_string(stream_name(r.stream)), r.index, r.bytes, r.latency_s,
                            r.completed_unix);
    bytes += r.bytes;
  }
  return fmt::format(
      R"("messages_completed":{},"bytes_completed":{},"expected":{},"content_errors":{},"duplicates":{},)"
      R"("first_rx_s":{},"last_completion_s":{:.6f},"streams":{},"messages":[{}])",
      records_.size(), bytes, expected_, content_errors_, duplicates_, first_rx_s_ ? fmt::format("{:.6f}", *first_rx_s_) : "-1",
      last_completion_s_, streams_json(), messages);
}

}  // namespace dissem::load
