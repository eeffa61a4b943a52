// dissem-load's command line, defined once: dissem-load parses its own with
// it, and dissem-sim reads a scenario's dissem-load commands with it (the
// same options, the same checks).
#pragma once

#include <CLI/CLI.hpp>

#include "tools/load/load_publisher.h"
#include "tools/load/load_receiver.h"

namespace dissem::load {

// The `publish` and `receive` subcommands of `app`, filling `args`.
CLI::App* add_publish_command(CLI::App& app, PublishArgs& args);
CLI::App* add_receive_command(CLI::App& app, ReceiveArgs& args);

}  // namespace dissem::load
