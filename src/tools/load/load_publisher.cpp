#include "tools/load/load_publisher.h"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "client/client.h"
#include "core/json.h"
#include "tools/load/message_plan.h"
#include "tools/load/publication_log.h"
#include "tools/load/stamped_payload.h"
#include "tools/load/workload.h"

namespace dissem::load {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// What to publish: a workload's schedule, or --messages as one stream whose
// sizes may differ, one message every --interval-s.
struct Publication {
  Workload workload;
  std::vector<Planned> schedule;
  bool from_sizes = false;
};

Publication publication_of(const PublishArgs& a) {
  Publication p;
  p.workload = workload_from_options(a.plan, a.streams);
  if (a.messages.empty() == p.workload.streams.empty())
    throw std::invalid_argument("give either --messages or a workload (--plan, --stream)");
  if (!p.workload.streams.empty()) {
    if (a.no_replace)
      for (auto& s : p.workload.streams) s.replace = false;
    p.schedule = schedule(p.workload);
    return p;
  }
  p.from_sizes = true;
  const auto sizes = parse_message_sizes(a.messages);
  StreamSpec s;
  s.name = "stream-0";  // as a receiver without the workload names it
  s.count = static_cast<std::uint32_t>(sizes.size());
  s.priority = a.priority;
  p.workload.streams.push_back(s);
  for (std::size_t i = 0; i < sizes.size(); ++i)
    p.schedule.push_back({a.interval_s * static_cast<double>(i), 0, static_cast<std::uint32_t>(i), sizes[i]});
  return p;
}

engine::PublishRequest request_of(const PublishArgs& a, const Publication& p, const Planned& m, TagScheme tags,
                                  std::uint64_t start_unix_us) {
  const StreamSpec& spec = p.workload.streams[m.stream];
  engine::PublishRequest r;
  r.group = a.group;
  // --messages keeps its old meaning: stamped when handed over, untagged.
  const Stamp stamp = p.from_sizes ? Stamp{m.index, unix_us(), 0} : stamp_of(m, start_unix_us);
  r.payload = make_payload(m.bytes, stamp);
  r.priority = spec.priority;
  r.lifetime_ms = spec.lifetime_ms;
  // A replacing message supersedes the publisher's older ones with its tag
  // (--no-replace has cleared the flag); --messages never replaces.
  r.replace = spec.replace;
  if (!p.from_sizes) r.tag = tag_of(spec, m.index, tags);
  return r;
}

}  // namespace

int run_publish(const PublishArgs& a) {
  const Publication p = publication_of(a);
  const TagScheme tags = parse_tag_scheme(a.tag_scheme);
  if (tags == TagScheme::None)
    for (const auto& s : p.workload.streams)
      if (s.replace) throw std::invalid_argument("--tag-scheme none: stream '" + s.name + "' replaces, which needs a tag");
  client::Client c(a.socket);
  PublicationLog log(p.workload);
  const auto t0 = Clock::now();
  const std::uint64_t start_unix = unix_us();
  const auto at = [&](double s) {
    return t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  std::size_t not_offered = 0;
  for (const Planned& m : p.schedule) {
    if (a.offer_for_s > 0 && m.at_s >= a.offer_for_s) {
      ++not_offered;
      continue;
    }
    std::this_thread::sleep_until(at(m.at_s));
    const double produced_s = seconds_since(t0);
    if (a.offer_for_s > 0) {
      if (produced_s >= a.offer_for_s) {
        ++not_offered;
        continue;
      }
      // Wait for room in the send queue at most until the offer ends.
      c.set_publish_wait(std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::duration<double>(a.offer_for_s - produced_s)));
      try {
        c.publish(request_of(a, p, m, tags, start_unix));
      } catch (const client::RequestError& e) {
        if (e.code() != client::ErrorCode::QueueFull) throw;
        ++not_offered;  // the offer ended while the daemon's queue was full
        continue;
      }
    } else {
      c.publish(request_of(a, p, m, tags, start_unix));
    }
    log.add(m, produced_s);
  }
  Json result;
  result["system"] = "dissem";
  result["role"] = "sender";
  result["start_unix"] = round_to_decimals(static_cast<double>(start_unix) / 1e6, 6);
  result["tag_scheme"] = a.tag_scheme;
  result.update(log.json_members());
  if (a.offer_for_s > 0) {
    result["offer_for_s"] = round_to_decimals(a.offer_for_s, 3);
    result["not_offered"] = not_offered;
  }
  result["duration_s"] = round_to_decimals(seconds_since(t0), 6);
  std::printf("%s\n", json_text(result).c_str());
  return 0;
}

}  // namespace dissem::load
