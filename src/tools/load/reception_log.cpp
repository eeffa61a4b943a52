#include "tools/load/reception_log.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include <fmt/format.h>

#include "tools/load/stamped_payload.h"

namespace dissem::load {
namespace {

// Seconds to the microsecond, as the results always gave them.
Json micros(double seconds) { return round_to_decimals(seconds, 6); }

// The same, or null when there is no figure.
Json micros_or_null(const std::optional<double>& seconds) { return seconds ? micros(*seconds) : Json(nullptr); }

// A count the plan gives, or null without a plan.
Json count_or_null(const StreamSpec* spec, std::size_t count) { return spec ? Json(count) : Json(nullptr); }

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

Json ReceptionLog::stream_json(std::uint32_t stream) const {
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
  const bool any = !latencies.empty();
  const double sum = std::accumulate(latencies.begin(), latencies.end(), 0.0);
  Json j;
  j["id"] = stream;
  j["expected"] = count_or_null(spec, spec ? spec->count : 0);
  j["received"] = latencies.size();
  j["bytes"] = bytes;
  j["sources"] = count_or_null(spec, spec ? spec->sources : 0);
  j["final_updates_received"] = count_or_null(spec, finals.size());
  j["latency_mean_s"] = any ? micros(sum / static_cast<double>(latencies.size())) : Json(nullptr);
  j["latency_p50_s"] = micros_or_null(quantile(latencies, 0.5));
  j["latency_p95_s"] = micros_or_null(quantile(latencies, 0.95));
  j["latency_max_s"] = any ? micros(*std::max_element(latencies.begin(), latencies.end())) : Json(nullptr);
  return j;
}

Json ReceptionLog::streams_json() const {
  std::set<std::uint32_t> ids;
  for (std::uint32_t s = 0; s < plan_.streams.size(); ++s) ids.insert(s);
  for (const auto& r : records_) ids.insert(r.stream);
  Json out = Json::object();
  for (auto id : ids) out[stream_name(id)] = stream_json(id);
  return out;
}

Json ReceptionLog::json_members() const {
  Json messages = Json::array();
  std::uint64_t bytes = 0;
  for (const auto& r : records_) {
    messages.push_back({{"publisher", r.publisher},
                        {"stream", stream_name(r.stream)},
                        {"index", r.index},
                        {"bytes", r.bytes},
                        {"latency_s", micros(r.latency_s)},
                        {"completed_unix", micros(r.completed_unix)}});
    bytes += r.bytes;
  }
  Json j;
  j["messages_completed"] = records_.size();
  j["bytes_completed"] = bytes;
  j["expected"] = expected_;
  j["content_errors"] = content_errors_;
  j["duplicates"] = duplicates_;
  j["first_rx_s"] = first_rx_s_ ? micros(*first_rx_s_) : Json(-1);
  j["last_completion_s"] = micros(last_completion_s_);
  j["streams"] = streams_json();
  j["messages"] = std::move(messages);
  return j;
}

}  // namespace dissem::load
