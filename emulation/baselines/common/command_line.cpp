#include "command_line.h"

#include <CLI/CLI.hpp>

#include <cstdio>

#include "core/version.h"

namespace dissem::baseline {

std::optional<int> parse_arguments(CLI::App& app, int argc, const char* const* argv, const char* program,
                                   const std::function<void()>& finish) {
  app.set_version_flag("--version", version_line(program), "print the version and exit");
  try {
    app.parse(argc, argv);
    finish();
    return std::nullopt;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);  // prints the selected subcommand's help on stdout
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);  // prints the version on stdout
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: %s\nRun with --help for more information.\n", program, e.what());
    return 2;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 2;
  }
}

}  // namespace dissem::baseline
