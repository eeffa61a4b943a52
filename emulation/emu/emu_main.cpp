// dissem-emu: builds the emulated network, prints the ready line, forwards
// frames until SIGTERM/SIGINT or --duration, writes the stats, tears down.
// Exit codes: 0 after a normal run or cleanup, 1 on a start-up or run-time
// failure (after tearing down), 2 on a bad command line or EEL file.
#include <signal.h>

#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "eel.h"
#include "emu_options.h"
#include "emulated_network.h"
#include "event_loop.h"
#include "forwarder.h"
#include "link_model.h"
#include "namespaces.h"
#include "emulator_output.h"
#include "scheduling.h"

namespace {

using namespace dissem::emu;

int run_cleanup(const std::string& prefix) {
  const auto found = namespaces_with_prefix(prefix);
  if (found.empty()) {
    std::printf("nothing to remove for '%s'\n", prefix.c_str());
    return 0;
  }
  for (const auto& ns : found) {
    const auto pids = pids_in_namespace(ns);
    if (!pids.empty()) {
      std::string list;
      for (const auto& p : pids) list.append(list.empty() ? "" : " ").append(p);
      std::fprintf(stderr, "dissem-emu: warning: processes still in %s (pids %s) keep it alive after removal\n",
                   ns.c_str(), list.c_str());
    }
  }
  const auto left = delete_namespaces(found);
  for (const auto& ns : found) {
    bool removed = true;
    for (const auto& l : left) removed = removed && l != ns;
    if (removed) std::printf("removed %s\n", ns.c_str());
  }
  for (const auto& ns : left) std::fprintf(stderr, "dissem-emu: could not remove %s\n", ns.c_str());
  return left.empty() ? 0 : 1;
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: return fmt::format("signal {}", signal);
  }
}

// The EEL file's events (none without --eel), or nullopt after its error
// line (exit 2).
std::optional<EelScenario> load_scenario(const EmuOptions& options) {
  EelScenario scenario;
  if (!options.eel_path) return scenario;
  try {
    scenario = load_eel_file(*options.eel_path, options.nodes);
  } catch (const EelError& e) {
    std::fprintf(stderr, "dissem-emu: %s\n", e.what());
    return std::nullopt;
  }
  if (!scenario.ignored.empty()) {
    std::string list;
    for (const auto& [type, count] : scenario.ignored)
      list.append(list.empty() ? "" : ", ").append(fmt::format("{} {}", count, type));
    std::fprintf(stderr, "dissem-emu: ignoring EEL events other than commeffect: %s\n", list.c_str());
  }
  return scenario;
}

// Sets the events at time 0 (or before) and schedules the others; returns
// how many were set.
std::size_t apply_scenario(LinkModel& model, const EelScenario& scenario) {
  std::size_t at_start = 0;
  for (const auto& e : scenario.events) {
    if (e.at <= 0) {
      model.set_effects(e.sender, e.receiver, e.effects);
      ++at_start;
    } else {
      model.schedule_effects(e.at, e.sender, e.receiver, e.effects);
    }
  }
  return at_start;
}

// Forwards frames until a termination signal or --duration, and fills in
// run.ran and run.stopped_by. False after reporting a failure.
bool forward_frames(const EmuOptions& options, LinkModel& model, EmulatedNetwork& network, TimeNs origin,
                    RunSummary& run) {
  Forwarder forwarder(model, network, origin);
  std::optional<TimeNs> stop_at;
  if (options.duration_s) stop_at = static_cast<TimeNs>(*options.duration_s * static_cast<double>(kNsPerSecond));
  try {
    const Forwarder::Outcome outcome = forwarder.run(stop_at);
    run.ran = outcome.ran;
    run.stopped_by = outcome.signal ? signal_name(outcome.signal) : "duration";
    return true;
  } catch (const std::exception& e) {
    // Still write what was counted and tear down, then report the failure.
    std::fprintf(stderr, "dissem-emu: %s\n", e.what());
    run.ran = monotonic_now() - origin;
    run.stopped_by = "error";
    return false;
  }
}

// Writes the pcap records and the stats file and removes the network, each
// whatever became of the others. False if any of it failed (reported).
bool finish_run(const EmuOptions& options, const LinkModel& model, EmulatedNetwork& network, const RunSummary& run) {
  bool ok = true;
  if (!network.flush_pcaps()) {
    std::fprintf(stderr, "dissem-emu: some pcap records could not be written\n");
    ok = false;
  }
  if (options.stats_json) {
    try {
      write_file_atomically(*options.stats_json, stats_json(options, model, run));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "dissem-emu: %s\n", e.what());
      ok = false;
    }
  }
  for (const auto& ns : network.teardown()) {
    std::fprintf(stderr, "dissem-emu: could not remove namespace %s\n", ns.c_str());
    ok = false;
  }
  return ok;
}

int run_emulation(const EmuOptions& options) {
  // Everything that can be checked without touching the host is checked first.
  const std::optional<EelScenario> scenario = load_scenario(options);
  if (!scenario) return 2;
  LinkModel model(options.model_config(), AddressPlan(options.prefix, options.nodes));
  RunSummary run;
  run.eel_events = scenario->events.size();
  run.eel_events_at_start = apply_scenario(model, *scenario);
  run.ignored_eel_events = scenario->ignored;

  EmulatedNetwork network(
      {options.prefix, options.nodes, options.subnet, options.pcap_dir, options.ipv6, options.interface_name,
       options.joins});

  // After the namespaces and TAPs exist (their set-up runs helper commands),
  // before the first frame: only the forwarding loop runs real-time.
  std::string scheduling_warning;
  run.scheduling = apply_scheduling(options.rt_priority, scheduling_warning);
  if (!scheduling_warning.empty()) std::fprintf(stderr, "dissem-emu: warning: %s\n", scheduling_warning.c_str());

  const TimeNs origin = monotonic_now();
  // Time 0 of the run (the EEL's clock) as Unix time, the clock of the pcap stamps.
  run.origin_unix = origin + realtime_now() - monotonic_now();
  std::printf("%s\n", ready_line(options, network.nodes()).c_str());
  std::fflush(stdout);

  const bool forwarded = forward_frames(options, model, network, origin, run);
  const bool finished = finish_run(options, model, network, run);
  return forwarded && finished ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // First, before any child or thread: termination signals wait for the event
  // loop (or for the end of start-up), so every way out goes through teardown.
  block_termination_signals();
  ::signal(SIGPIPE, SIG_IGN);

  EmuOptions options;
  try {
    options = parse_emu_options(argc, argv);
  } catch (const HelpRequested& help) {
    std::fputs(help.text.c_str(), stdout);
    return 0;
  } catch (const OptionsError& e) {
    std::fprintf(stderr, "dissem-emu: %s\n", e.what());
    return 2;
  }

  try {
    if (options.cleanup) return run_cleanup(*options.cleanup);
    return run_emulation(options);
  } catch (const std::exception& e) {
    // EmulatedNetwork has already removed what it made when this arrives.
    std::fprintf(stderr, "dissem-emu: %s\n", e.what());
    return 1;
  }
}
