// A small TOML file describing a simulation: nodes, links, publications.
//
//   seed = 7                      # simulation seed
//   duration_s = 120.0            # stop here at the latest
//   stop_when_complete = true     # stop early once every subscriber has everything
//
//   [medium]                      # optional
//   shared_channel = false
//   per_packet_overhead = 28
//   queue_packets = 50
//   radio_backpressure = true     # false: the host hands its radio all its pacer releases and a
//                                 # full queue drops (the emulator's links; sim/medium.h)
//
//   [links]                       # defaults for every ordered pair (optional); the
//   reliability = 0.9             # link keys are the scenario language's (its
//   latency_ms = 1.0              # [topology], emulation/README.md): reliability
//   jitter_ms = 0.0               # is a fraction in [0, 1]
//   enabled = true
//   [[links.override]]            # applied in order over the defaults
//   from = "uav"                  # a node name, or "*" for every node; one
//   to = "*"                      # direction (from -> to): a two-way change is two tables
//   asymmetric = false            # true: then disable the reverse (to -> from) of each
//                                 # matched direction, as the language's overrides do
//   reliability = 0.7             # omitted fields keep what the pair had so far
//
//   [[link_changes]]              # during the run: partitions, heals, joins
//   at_s = 30.0
//   from = "a4"                   # as in links.override (asymmetric is for
//   to = "b1"                     # overrides only, as in the language's events)
//   enabled = true                # omitted fields keep the pair's current value
//   [[link_changes]]
//   at_s = 30.0
//   from = "b1"                   # the other direction
//   to = "a4"
//   enabled = true
//
//   [controllers]                 # defaults for every node (optional), keys as
//   forwarding = "flooding"       # in dissemd's [controllers] section
//   forwarding.hop_limit = 6      # (controllers/controller_settings.h)
//
//   [[nodes]]
//   name = "uav"
//   capacity_kbps = 230           # or capacity_bps; 1 kbit = 1024 bit
//   serve_requests = false        # default true
//   cache_unsubscribed = true     # opportunistic listening (default true)
//   subscribe = ["intel"]
//   reliable = true               # subscriptions request missing data
//   history = 0                   # prior messages to fetch per publisher on first contact
//   subscribe_at_s = 0.0          # when the node subscribes (a late joiner: later)
//   engine = ["repair_share=0.3"] # engine settings key=value (engine/config_keys.h),
//                                 # applied last, over the fields above
//   [nodes.controllers]           # this node's controllers, over [controllers]
//   replication = "anti-entropy"
//
//   [[publications]]
//   at_s = 1.0
//   node = "uav"
//   group = "intel"
//   size = 4096                   # random bytes, or: file = "x.bin" (relative to this file)
//   last_size = 1000              # optional, the last message's size (random bytes only)
//   count = 10                    # optional, messages at interval_s apart
//   interval_s = 0.5
//   # or spread_s = 70.0: the count spread evenly over this span, message k
//   # at at_s + spread_s * k / count (whole microseconds, rounded down)
//   priority = 0                  # optional: the messages' priority (Mockets' timeliness)
//   lifetime_ms = 0               # optional: each expires this long after its publication
//   tag = "pos"                   # optional: the messages' tag; with sources = N > 1,
//   sources = 1                   # message k is tagged "pos/<k mod N>" (one per producer)
//   replace = false               # true (needs tag): each replaces the older ones of its tag
//   offer_until_s = 0.0           # optional, > 0: messages due from here on are not published
//
// Any key not listed here is an error naming the key and where it was found;
// the format's older words (reliability_pct, a percentage, and symmetric =
// true, "also the reverse direction") are errors that say what replaced them.
// scenario_toml() prints a Scenario in this form, so generated topologies
// (dissem-sim baseline, tactical, line, grid, partition, late-join,
// geometric) can be saved and edited.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "controllers/controller_settings.h"
#include "core/types.h"
#include "scenario/scenario_error.h"
#include "sim/medium.h"

namespace dissem::sim {

// The paper's "kbit/s" are 1024 bit/s: its NORM figures put 864,884 bytes
// through a "256 kbps" link in 26.4 s, which is 262,144 bit/s.
constexpr std::uint64_t kBitsPerKbit = 1024;

// The scenario language's error (scenario/scenario_error.h): one error for every scenario reader.
using ScenarioError = scenario::ScenarioError;

struct ScenarioNode {
  std::string name;
  std::uint64_t capacity_bps = 0;
  bool serve_requests = true;
  bool cache_unsubscribed = true;
  std::vector<std::string> subscribe;
  bool reliable = true;
  std::uint32_t history = 0;
  Micros subscribe_at = 0;
  controllers::ControllerSettings controllers;
  std::vector<std::string> engine;  // "key=value" engine settings, applied last
};

struct ScenarioLink {
  std::size_t from = 0;
  std::size_t to = 0;
  LinkParams params;
};

// A change of a link's parameters at a moment of the run.
struct ScenarioLinkChange {
  Micros at = 0;
  std::size_t from = 0;
  std::size_t to = 0;
  LinkParams params;  // the pair's parameters from then on
};

struct ScenarioPublication {
  Micros at = 0;
  std::size_t node = 0;
  std::string group;
  std::uint64_t size = 0;             // random payload of this size, when no file
  std::uint64_t last_size = 0;        // > 0: the last message's size instead (random payloads only)
  std::vector<std::uint8_t> payload;  // the file's bytes, when a file is named
  std::size_t count = 1;
  Micros interval = 0;
  Micros spread = 0;  // > 0: the count spread evenly over this span instead of `interval` apart
  std::uint32_t priority = 0;
  std::uint32_t lifetime_ms = 0;  // 0: the messages do not expire
  std::string tag;                // empty: untagged
  std::uint32_t sources = 1;      // > 1: message k tagged "<tag>/<k mod sources>"
  bool replace = false;           // each replaces the older messages of its tag (needs a tag)
  Micros offer_until = 0;         // > 0: messages due at or after it are not published (dissem-load --offer-for-s)

  // Whether message k is published at all.
  bool offered(std::size_t k) const { return offer_until <= 0 || time_of(k) < offer_until; }

  // Message k's tag (empty when untagged).
  std::string tag_of(std::size_t k) const {
    if (tag.empty() || sources <= 1) return tag;
    return tag + "/" + std::to_string(k % sources);
  }

  // When message k (0 <= k < count) is published.
  Micros time_of(std::size_t k) const {
    const auto step = static_cast<Micros>(k);
    return spread > 0 ? at + spread * step / static_cast<Micros>(count) : at + step * interval;
  }
};

struct Scenario {
  std::string source;  // file name, for reports and errors
  std::uint64_t seed = 1;
  Micros duration = 60 * kSeconds;
  bool stop_when_complete = true;
  MediumConfig medium;
  LinkParams default_link;
  std::vector<ScenarioNode> nodes;
  std::vector<ScenarioLink> links;  // resolved overrides, in order
  std::vector<ScenarioLinkChange> link_changes;  // resolved, in order
  std::vector<ScenarioPublication> publications;
};

// Reads and validates `path`; throws ScenarioError.
Scenario load_scenario_file(const std::filesystem::path& path);
// Parses TOML text; `source` names it in errors, files are looked up in `base_dir`.
Scenario parse_scenario(std::string_view text, const std::string& source, const std::filesystem::path& base_dir);

// The TOML text of `scenario`: every node, every link that differs from the
// default, every change and publication, and each node's controllers where
// they differ from the defaults. Publications read from a file are written
// with their size (random bytes when read back).
std::string scenario_toml(const Scenario& scenario);

}  // namespace dissem::sim
