#include "tools/sim_scenario/node_workload.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "daemon/daemon_args.h"
#include "scenario/scenario_error.h"
#include "tools/load/load_options.h"
#include "tools/sim_scenario/node_commands.h"
#include "tools/sim_scenario/run_names.h"

namespace dissem::sim_scenario {
namespace {

using scenario::fail;

std::vector<const char*> c_argv(const std::vector<std::string>& words) {
  std::vector<const char*> out;
  for (const auto& w : words) out.push_back(w.c_str());
  return out;
}

daemon::DaemonConfig read_daemon(const scenario::CommandSpec& c, const scenario::Names& names, const std::string& source) {
  const auto words = program_argv(c, names, source, "dissemd");
  const auto argv = c_argv(words);
  // The runtime environment only names default paths, which the simulator does not use.
  const daemon::RuntimeEnvironment env{false, "/nonexistent", 0};
  daemon::DaemonArgs args;
  try {
    args = daemon::parse_daemon_args(static_cast<int>(argv.size()), argv.data(), env);
  } catch (const std::exception& e) {
    fail(source, c.key, std::string("dissemd: ") + e.what());
  }
  if (args.action != daemon::StartAction::Run) fail(source, c.key, "dissemd: prints and exits instead of running");
  if (!args.config.security.empty())
    fail(source, c.key, "dissemd: security keys are files of a run; the simulator runs no keyed groups");
  return args.config;
}

void read_load(const scenario::CommandSpec& c, const scenario::Names& names, const std::string& source, double at_s,
               NodeWorkload& out) {
  const auto words = program_argv(c, names, source, "dissem-load");
  const auto argv = c_argv(words);
  CLI::App app{"dissem-load"};
  app.require_subcommand(1);
  Publish p{{}, at_s, c.key};
  Receive r{{}, at_s, c.key};
  CLI::App* publish = load::add_publish_command(app, p.args);
  load::add_receive_command(app, r.args);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    fail(source, c.key, std::string("dissem-load: ") + e.what());
  }
  if (publish->parsed())
    out.publish.push_back(std::move(p));
  else
    out.receive.push_back(std::move(r));
}

void read_role(const scenario::RoleSpec& role, const scenario::ScenarioNode& node, const scenario::Names& names,
               const std::string& source, NodeWorkload& out) {
  if (!role.env.empty())
    fail(source, role.key + ".env", "the simulator starts no processes: environment variables are not honoured");
  if (role.daemon) {
    if (out.daemon)
      fail(source, role.daemon->key, fmt::format("node {} runs dissemd already ({})", node.name, out.daemon_key));
    out.daemon = read_daemon(*role.daemon, names, source);
    out.daemon_key = role.daemon->key;
  }
  if (role.command) {
    const double at = role.start_delay_s ? role.start_delay_s->number(names) : 0.0;
    read_load(*role.command, names, source, at, out);
  }
}

}  // namespace

std::vector<NodeWorkload> read_node_workloads(const scenario::ScenarioDocument& doc, const scenario::SystemSpec& system,
                                              const scenario::Names& run) {
  if (!system.env.empty())
    fail(doc.source, "systems." + system.name + ".env",
         "the simulator starts no processes: environment variables are not honoured");
  std::vector<NodeWorkload> out(doc.nodes.size());
  for (const auto& node : doc.nodes.nodes()) {
    const scenario::Names names = node_names(run, node);
    NodeWorkload& w = out[static_cast<std::size_t>(node.id - 1)];
    for (const auto& role : node.roles)
      if (const auto it = system.roles.find(role); it != system.roles.end()) read_role(it->second, node, names, doc.source, w);
    if (!w.daemon && !(w.publish.empty() && w.receive.empty()))
      fail(doc.source, (w.publish.empty() ? w.receive.front().key : w.publish.front().key),
           fmt::format("dissem-load needs dissemd on node {}, and the system starts none there", node.name));
  }
  return out;
}

}  // namespace dissem::sim_scenario
