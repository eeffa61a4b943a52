#include "tools/load/publication_log.h"

#include <algorithm>

#include <fmt/format.h>


namespace dissem::load {

Stamp stamp_of(const Planned& message, std::uint64_t start_unix_us) {
  return {message.index, static_cast<std::uint64_t>(static_cast<std::int64_t>(start_unix_us) + offset_us(message.at_s)),
          message.stream};
}

PublicationLog::PublicationLog(const Workload& plan) {
  for (const auto& s : plan.streams) streams_.push_back({s.name, 0, 0});
}

PublicationLog::PerStream& PublicationLog::stream(std::uint32_t id) {
  while (streams_.size() <= id) streams_.push_back({fmt::format("stream-{}", streams_.size()), 0, 0});
  return streams_[id];
}

void PublicationLog::add(const Planned& message, double produced_s) {
  PerStream& s = stream(message.stream);
  ++s.published;
  s.bytes += message.bytes;
  bytes_ += message.bytes;
  times_.push_back(produced_s);
  late_max_s_ = std::max(late_max_s_, produced_s - message.at_s);
}

Json PublicationLog::json_members() const {
  Json times = Json::array();
  for (double t : times_) times.push_back(round_to_decimals(t, 6));
  Json streams = Json::object();
  for (const auto& s : streams_) streams[s.name] = {{"published", s.published}, {"bytes", s.bytes}};
  Json j;
  j["messages_published"] = times_.size();
  j["bytes_published"] = bytes_;
  j["publish_s"] = std::move(times);
  j["late_max_s"] = round_to_decimals(late_max_s_, 6);
  j["streams"] = std::move(streams);
  return j;
}

}  // namespace dissem::load
