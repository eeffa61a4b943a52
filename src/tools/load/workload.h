// An experiment's workload: interleaved streams of stamped messages, each
// with its own size, rate, count, priority, lifetime, replacement and number
// of sources. A stream of S sources at R Hz is S producers at R/S Hz each,
// evenly interleaved: message i comes from source i mod S (the seed-000
// experiments' "20 nodes, each a 1 KB update at 1 Hz" is one stream of 20
// sources at 20 Hz). One stream per line of a plan file, or per --stream:
//
//   # a name, then key=value items or flags, separated by spaces or commas
//   position count=1000 bytes=1024 rate_hz=20 sources=20 replace
//   image    count=6 bytes=5120 rate_hz=0.1 priority=1
//
// Keys: count and bytes (required), rate_hz (required unless count is 1),
// start_s (0: the first message's offset from the publisher's start),
// priority (0), sources (1), lifetime_ms (0: never expires), replace (a
// flag, or replace=yes|no: each message supersedes the publisher's older
// ones with the same tag). Bad text throws std::invalid_argument naming the
// stream and the item.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dissem::load {

struct StreamSpec {
  std::string name;
  std::uint32_t count = 0;
  std::size_t bytes = 0;
  double rate_hz = 0;
  double start_s = 0;
  std::uint32_t priority = 0;
  std::uint32_t sources = 1;
  std::uint32_t lifetime_ms = 0;
  bool replace = false;

  // When message `index` is produced, in seconds from the publisher's start.
  double at_s(std::uint32_t index) const;
  std::uint32_t source_of(std::uint32_t index) const { return index % sources; }
};

// What a message is tagged with, which is what replacement works on: one
// tag per stream (its name: the paper's one flow per type of update) or one
// per source ("name/k": each producer's update replaces only its own).
// Tags on published messages: one per stream, one per source, or none (the
// messages then cannot replace one another).
enum class TagScheme { Stream, Source, None };

std::string tag_of(const StreamSpec& stream, std::uint32_t index, TagScheme scheme);
TagScheme parse_tag_scheme(std::string_view text);

struct Workload {
  std::vector<StreamSpec> streams;

  std::size_t total_messages() const;
  std::uint64_t total_bytes() const;
  // The last message's offset from the publisher's start.
  double duration_s() const;
};

// One message of the workload, in the order the publisher produces them.
struct Planned {
  double at_s = 0;
  std::uint32_t stream = 0;  // index into Workload::streams
  std::uint32_t index = 0;   // position in the stream
  std::size_t bytes = 0;
};

StreamSpec parse_stream(std::string_view text);
// Lines of streams; '#' starts a comment, blank lines are skipped. The
// result is checked as a whole (see check_workload).
Workload parse_workload(std::string_view text);
Workload load_workload_file(const std::string& path);
// A program's --plan FILE (may be empty) and --stream options together, the
// file's streams first; no streams at all when neither is given.
Workload workload_from_options(const std::string& plan_file, const std::vector<std::string>& streams);
// Unique names, at least one stream, 1,000,000 messages and 4 GiB at most.
void check_workload(const Workload& workload);

// Every message of the workload, by production time (ties: stream order).
std::vector<Planned> schedule(const Workload& workload);

// A planned offset in whole microseconds: what the publisher adds to its
// start to stamp a message, and what a receiver subtracts to find the start.
std::int64_t offset_us(double at_s);

}  // namespace dissem::load
