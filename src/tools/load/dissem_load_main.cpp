// dissem-load: the workload of an emulated experiment, on the same footing as
// the baselines (emulation/baselines/norm, emulation/baselines/tcp): a
// publisher that sends stamped messages on a schedule, and a receiver that
// records them, checks their content and measures per-message latency. Each
// prints one JSON object as its last line of stdout for the experiment runner.
//
//   dissem-load publish --socket S --group G --messages 1x819200 [--interval-s T]
//   dissem-load publish --socket S --group G --plan exp1.plan [--stream SPEC]... [--tag-scheme stream|source|none]
//                       [--offer-for-s S]
//   dissem-load receive --socket S --group G --expect N [--time-limit-s T]
//   dissem-load receive --socket S --group G --plan exp1.plan [--linger-s L] [--time-limit-s T]
//
// Workloads (--plan FILE, --stream SPEC): src/tools/load/workload.h.
#include <cstdio>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "core/version.h"
#include "tools/load/load_options.h"

int main(int argc, char** argv) {
  using namespace dissem::load;
  CLI::App app{"dissem-load: an experiment's publisher and receiver, reporting JSON"};
  app.set_version_flag("--version", dissem::version_line("dissem-load"), "print the version and exit");
  app.require_subcommand(1);
  PublishArgs p;
  auto* pub = add_publish_command(app, p);
  ReceiveArgs r;
  add_receive_command(app, r);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    return pub->parsed() ? run_publish(p) : run_receive(r);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "dissem-load: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissem-load: %s\n", e.what());
    return 3;
  }
}
