#include "config/toml_document.h"

#include <algorithm>
#include <fstream>
#include <iterator>

#include "config/config_error.h"
#include "config/setting_text.h"
#include "config/toml_parse.h"

namespace dissem::config {
namespace {

bool listed(const std::vector<std::string_view>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void apply_table(const std::string& prefix, bool nested, const toml::table& table, const std::string& source,
                 const DocumentKeys& keys) {
  for (auto&& [name, node] : table) {
    const std::string key = prefix + "." + std::string(name.str());
    if (nested && node.is_table()) {
      apply_table(key, true, *node.as_table(), source, keys);
      continue;
    }
    try {
      const auto type = keys.type_of(key);
      if (!type) throw SettingError::unknown(key);
      keys.set(key, value_text(key, *type, node));
    } catch (const SettingError& e) {
      throw ConfigError(e.what() + toml_where(source, node));
    } catch (const ConfigError& e) {
      throw ConfigError(e.what() + toml_where(source, node));
    }
  }
}

}  // namespace

void apply_document(std::string_view text, const std::string& source, const DocumentKeys& keys) {
  toml::table root;
  if (auto problem = parse_toml(text, source, root)) throw ConfigError(*problem);
  for (auto&& [name, node] : root) {
    const std::string section(name.str());
    if (!listed(keys.sections, section)) {
      const std::string what = node.is_table() ? "unknown table [" + section + "]" : "unknown key '" + section + "'";
      throw ConfigError(what + toml_where(source, node));
    }
    const toml::table* table = node.as_table();
    if (table == nullptr) {
      throw ConfigError(section + ": expected a table [" + section + "], got " + type_name(node) +
                        toml_where(source, node));
    }
    apply_table(section, listed(keys.nested, section), *table, source, keys);
  }
}

std::string read_document_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open configuration file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ConfigError(path + ": cannot read configuration file");
  return text;
}

std::string print_document(const std::string& header, const std::vector<PrintedKey>& keys) {
  std::string out = header;
  std::string current;
  for (const auto& k : keys) {
    const auto dot = k.key.find('.');
    const std::string section = k.key.substr(0, dot);
    if (section != current) {
      if (!out.empty()) out += '\n';
      out.append("[").append(section).append("]\n");
      current = section;
    }
    const std::string name = k.key.substr(dot + 1);
    if (!k.unset_note.empty()) {
      out.append("# ").append(name).append(": ").append(k.unset_note).append("\n");
      continue;
    }
    out.append(name).append(" = ").append(value_toml(k.type, k.text)).append("\n");
  }
  return out;
}

}  // namespace dissem::config
