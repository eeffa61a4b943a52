#include "daemon/daemon_args.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/version.h"
#include "daemon/config_toml.h"
#include "daemon/daemon_keys.h"
#include "daemon/interface_keys.h"

namespace dissem::daemon {
namespace {

// Direct flags are taken as text and set through the key table, so their
// validation and error messages are those of the keys they stand for.
struct DirectFlag {
  const char* flag;
  const char* key;
  const char* metavar;
  const char* help;
  std::optional<std::string> value;
};

// What the command line gave, before any of it is applied.
struct CommandLine {
  std::string config_file;
  std::vector<std::string> assignments;
  std::vector<std::string> interfaces;
  bool print_config = false;
  std::vector<DirectFlag> direct = {
      {"--port", "net.port", "PORT", "UDP port shared by every node (net.port)", {}},
      {"--cache", "cache.path", "FILE", "cache database file (cache.path)", {}},
      {"--socket", "ipc.socket", "PATH", "local API Unix socket (ipc.socket)", {}},
      {"--node-id", "node.node_id", "ID", "node id, 0 = generate and keep (node.node_id)", {}},
      {"--log-level", "log.level", "LEVEL", "error, warn, info or debug (log.level)", {}},
  };
};

void add_options(CLI::App& app, CommandLine& line) {
  app.footer(
      "Precedence, later winning: defaults, --config, each --set in order, then the direct flags.\n"
      "Keys: node.*, net.*, cache.*, ipc.*, log.*, security.*, engine.*, controllers.*\n"
      "--print-config lists them all; dissemd.example.toml explains each (docs/ in the sources,\n"
      "share/doc/dissem/examples/ when installed).\n"
      "SIGHUP (or `dissem reload`) reads the configuration and key files again and applies what can\n"
      "change while running (log.level, security.*, metrics.*, ipc.mode, some engine keys); it names\n"
      "the rest as needing a restart. SIGTERM or SIGINT commit the cache and stop.");
  app.add_option("--config", line.config_file, "TOML configuration file")->type_name("FILE");
  app.add_option("--set", line.assignments, "section.key=value, e.g. engine.payload_size=1200 (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  app.add_option("--interface", line.interfaces, "network interface; repeat for several (net.interfaces)")
      ->type_name("NAME")
      ->allow_extra_args(false);
  for (auto& d : line.direct) app.add_option(d.flag, d.value, d.help)->type_name(d.metavar);
  app.add_flag("--print-config", line.print_config, "print the effective configuration as TOML and exit");
}

// net.interfaces' text form: the names joined with commas.
std::string join_interfaces(const std::vector<std::string>& interfaces) {
  std::string joined;
  for (const auto& i : interfaces) {
    // The key's text form is comma-separated; a comma here would split a name.
    if (i.find(',') != std::string::npos) throw ConfigError("net.interfaces: '" + i + "' contains a comma");
    joined += (joined.empty() ? "" : ",") + i;
  }
  return joined;
}

// The defaults, then the file, the --set assignments and the direct flags,
// in that order.
DaemonConfig build_config(const CommandLine& line, const RuntimeEnvironment& env) {
  DaemonConfig config = default_config(env);
  if (!line.config_file.empty()) apply_toml_file(config, line.config_file);
  for (const auto& a : line.assignments) apply_assignment(config, a);
  if (!line.interfaces.empty()) set_value(config, "net.interfaces", join_interfaces(line.interfaces));
  for (const auto& d : line.direct)
    if (d.value) set_value(config, d.key, *d.value);
  // What one key cannot tell alone: an interface's own table names one of
  // net.interfaces; a decision point set to "plugin" needs plugin.path (the
  // plugin itself is loaded, and checked, at start-up).
  check_interface_links(config.net);
  try {
    controllers::check_settings(config.engine.controllers);
  } catch (const controllers::SettingsError& e) {
    throw ConfigError(std::string("controllers.") + e.what());
  }
  return config;
}

}  // namespace

DaemonArgs parse_daemon_args(int argc, const char* const* argv, const RuntimeEnvironment& env) {
  CLI::App app{"dissemd: peer-to-peer reliable dissemination over local broadcast/multicast UDP", "dissemd"};
  CommandLine line;
  add_options(app, line);
  app.set_version_flag("--version", version_line("dissemd"), "print the version and exit");

  DaemonArgs out;
  out.help = app.help();
  if (out.help.empty() || out.help.back() != '\n') out.help += '\n';
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out.action = StartAction::Help;
    return out;
  } catch (const CLI::CallForAllHelp&) {
    out.action = StartAction::Help;
    return out;
  } catch (const CLI::CallForVersion&) {
    out.action = StartAction::Version;
    return out;
  } catch (const CLI::ParseError& e) {
    throw ConfigError(std::string(e.what()) + " (see --help)");
  }

  out.config = build_config(line, env);
  out.action = line.print_config ? StartAction::PrintConfig : StartAction::Run;
  return out;
}

DaemonArgs parse_daemon_args(int argc, const char* const* argv) {
  return parse_daemon_args(argc, argv, RuntimeEnvironment::current());
}

}  // namespace dissem::daemon
