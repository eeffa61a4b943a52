#include "scenario/system_spec.h"

#include <fmt/format.h>

#include <regex>

#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

const std::set<std::string> kRunBuiltins = {"system", "subnet", "broadcast", "netmask", "prefix",
                                            "rundir", "repo", "scenario_dir", "time_limit_s"};
const std::set<std::string> kNodeBuiltins = {"node", "node_id", "address", "namespace", "interface",
                                             "mac", "workdir", "sockdir", "roles"};

TemplateText checked_template(const std::string& source, const std::string& key, const std::string& text,
                              const std::set<std::string>& names) {
  try {
    TemplateText t(text);
    t.check_names(names);
    return t;
  } catch (const TemplateError& e) {
    fail(source, key, e.what());
  }
}

std::optional<CommandSpec> read_command(const TableReader& t, std::string_view name, const std::set<std::string>& names) {
  const toml::node* n = t.node(name);
  if (n == nullptr) return std::nullopt;
  CommandSpec c{t.path(name), true, {}};
  if (auto s = n->value_exact<std::string>()) {
    if (s->find_first_not_of(" \t\n") == std::string::npos) t.fail(name, "is empty");
    c.parts.push_back(checked_template(t.source(), c.key, *s, names));
    return c;
  }
  const toml::array* a = n->as_array();
  if (a == nullptr || a->empty()) t.fail(name, "expected a shell command (text) or an argv list of text");
  c.shell = false;
  for (std::size_t i = 0; i < a->size(); ++i) {
    auto s = a->get(i)->value_exact<std::string>();
    if (!s) t.fail(name, "expected a shell command (text) or an argv list of text");
    c.parts.push_back(checked_template(t.source(), item_path(c.key, i), *s, names));
  }
  return c;
}

std::map<std::string, TemplateText> read_env(const TableReader& t, const std::set<std::string>& names) {
  std::map<std::string, TemplateText> out;
  const toml::table* env = t.table("env");
  if (env == nullptr) return out;
  static const std::regex kVariable(R"(^[A-Za-z_][A-Za-z0-9_]*$)");
  for (auto&& [k, v] : *env) {
    const std::string key(k.str());
    const std::string path = t.path("env") + "." + key;
    if (!std::regex_match(key, kVariable)) fail(t.source(), path, "is not a valid environment variable name");
    const auto text = v.value_exact<std::string>();
    if (!text) fail(t.source(), path, "expected text");
    out.emplace(key, checked_template(t.source(), path, *text, names));
  }
  return out;
}

RoleSpec read_role(const toml::table& table, const std::string& role, const std::string& where, const TableReader& parent,
                   const std::set<std::string>& run, const std::set<std::string>& node) {
  const TableReader t(table, where, parent.source(),
                      {"daemon", "ready_probe", "command", "collect", "wait", "start_delay_s", "env"},
                      TableReader::Style::Dotted);
  RoleSpec r{role, where, read_command(t, "daemon", node), read_command(t, "ready_probe", node),
             read_command(t, "command", node), read_command(t, "collect", node), t.boolean("wait").value_or(true),
             read_param(t, "start_delay_s", run, Param::Kind::Number, {0.0, std::nullopt}), read_env(t, node)};
  if (!r.daemon && !r.command && !r.collect) t.fail("", "needs a daemon, a command or a collect");
  if (r.ready_probe && !r.daemon) t.fail("ready_probe", "only makes sense with a daemon in the same role");
  return r;
}

}  // namespace

std::set<std::string> run_name_set(const std::set<std::string>& cell, const NodeSet& nodes) {
  std::set<std::string> out = cell;
  out.insert(kRunBuiltins.begin(), kRunBuiltins.end());
  for (const auto& [role, ids] : nodes.roles()) {
    out.insert(role + "_addresses");
    out.insert(role + "_address");
  }
  return out;
}

std::set<std::string> node_name_set(const std::set<std::string>& run) {
  std::set<std::string> out = run;
  out.insert(kNodeBuiltins.begin(), kNodeBuiltins.end());
  return out;
}

std::map<std::string, SystemSpec> read_systems(const TableReader& top, const NodeSet& nodes,
                                               const std::set<std::string>& cell,
                                               const std::vector<std::string>& networks) {
  const toml::table* systems = top.table("systems");
  if (systems == nullptr || systems->empty()) top.fail("systems", "define at least one [systems.<name>]");
  auto run = run_name_set(cell, nodes);
  auto node = node_name_set(run);
  if (networks.size() > 1) {
    for (const auto& n : networks) {
      for (const char* k : {"subnet_", "broadcast_"}) run.insert(k + n);
      for (const char* k : {"subnet_", "broadcast_", "interface_", "address_"}) node.insert(k + n);
    }
  }
  static const std::regex kName(R"(^[A-Za-z_][A-Za-z0-9_-]*$)");
  std::map<std::string, SystemSpec> out;
  for (auto&& [k, v] : *systems) {
    const std::string name(k.str());
    const std::string where = "systems." + name;
    if (!v.is_table()) fail(top.source(), where, "must be a table");
    if (!std::regex_match(name, kName)) fail(top.source(), where, "system names must be letters, digits, '_' or '-'");
    const TableReader st(*v.as_table(), where, top.source(), {"description", "env", "roles"}, TableReader::Style::Dotted);
    SystemSpec s{name, st.string("description").value_or(""), {}, read_env(st, node)};
    const toml::table* roles = st.table("roles");
    if (roles == nullptr) st.fail("roles", "is required");
    for (auto&& [rk, rv] : *roles) {
      const std::string role(rk.str());
      const std::string role_key = where + ".roles." + role;
      if (!nodes.roles().contains(role))
        fail(top.source(), role_key, fmt::format("unknown role (roles: {})", [&] {
               std::vector<std::string> known;
               for (const auto& [r, ids] : nodes.roles()) known.push_back(r);
               return fmt::format("{}", fmt::join(known, ", "));
             }()));
      if (!rv.is_table()) fail(top.source(), role_key, "must be a table");
      s.roles.emplace(role, read_role(*rv.as_table(), role, role_key, st, run, node));
    }
    if (s.roles.empty()) st.fail("roles", "lists no roles");
    out.emplace(name, std::move(s));
  }
  return out;
}

}  // namespace dissem::scenario
