// A node command of a scenario read for dissem-sim: rendered with the
// node's placeholders, split as /bin/sh would, and accepted only when it
// runs one program dissem-sim models: `[exec] PROGRAM ARGS`, optionally
// followed by `|| test $? ...` or `; test $? ...` (the runner's way of
// accepting an exit status). Anything else is an error naming the key.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scenario/system_spec.h"
#include "scenario/value.h"

namespace dissem::sim_scenario {

// The argv of `program` in the command (argv[0] is the program).
std::vector<std::string> program_argv(const scenario::CommandSpec& command, const scenario::Names& names,
                                      const std::string& source, std::string_view program);

}  // namespace dissem::sim_scenario
