#include "tools/load/publication_log.h"

#include <algorithm>

#include <fmt/format.h>

#include "tools/load/json_text.h"

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

std::string PublicationLog::json_members() const {
  std::string times;
  for (double t : times_) {
    if (!times.empty()) times += ',';
    times += fmt::format("{:.6f}", t);
  }
  std::string streams;
  for (const auto& s : streams_) {
    if (!streams.empty()) streams += ',';
    streams += fmt::format(R"({}:{{"published":{},"bytes":{}}})", json_string(s.name), s.published, s.bytes);
  }
  return fmt::format(R"("messages_published":{},"bytes_published":{},"publish_s":[{}],"late_max_s":{:.6f},)"
                     R"("streams":{{{}}})",
                     times_.size(), bytes_, times, late_max_s_, streams);
}

}  // namespace dissem::load
