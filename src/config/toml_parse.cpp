#include "config/toml_parse.h"

#include "config/toml_input_guard.h"

namespace dissem::config {

std::optional<std::string> parse_toml(std::string_view text, const std::string& source, toml::table& out) {
  if (auto problem = toml_input_problem(text, source)) return problem;
  try {
    out = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    return source + ":" + std::to_string(e.source().begin.line) + ":" + std::to_string(e.source().begin.column) +
           ": " + std::string(e.description());
  }
  return std::nullopt;
}

std::string toml_where(const std::string& source, const toml::node& node) {
  return " (" + source + ":" + std::to_string(node.source().begin.line) + ")";
}

}  // namespace dissem::config
