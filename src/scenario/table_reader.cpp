#include "scenario/table_reader.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

std::string join(const std::vector<std::string_view>& names) {
  std::string out;
  for (auto n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

}  // namespace

std::string item_path(std::string_view array_path, std::size_t index) {
  return std::string(array_path) + "[" + std::to_string(index + 1) + "]";
}

TableReader::TableReader(const toml::table& table, std::string where, const std::string& source,
                         const std::vector<std::string_view>& allowed, Style style,
                         const std::vector<Retired>& retired)
    : table_(table), where_(std::move(where)), source_(source), style_(style) {
  for (const Retired& r : retired)
    if (table.contains(r.key)) fail(r.key, r.why);
  for (auto&& [key, value] : table) {
    if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
    if (style_ == Style::Dotted)
      scenario::fail(source_, path(key.str()), "unknown key (known here: " + join(allowed) + ")");
    throw ScenarioError(source_ + ": unknown key '" + std::string(key.str()) + "' in " + where_ +
                        " (allowed: " + join(allowed) + ")");
  }
}

std::string TableReader::path(std::string_view key) const {
  if (style_ == Style::Phrase || where_.empty()) return std::string(key);
  return where_ + "." + std::string(key);
}

void TableReader::fail(std::string_view key, std::string_view what) const {
  if (style_ == Style::Dotted) scenario::fail(source_, key.empty() ? where_ : path(key), what);
  throw ScenarioError(source_ + ": key '" + std::string(key) + "' in " + where_ + " " + std::string(what));
}

std::optional<double> TableReader::number(std::string_view key) const {
  const toml::node* n = table_.get(key);
  if (n == nullptr) return std::nullopt;
  if (auto i = n->value_exact<std::int64_t>()) return static_cast<double>(*i);
  if (auto d = n->value_exact<double>()) {
    if (!std::isfinite(*d)) fail(key, "must be a finite number");
    return *d;
  }
  fail(key, "must be a number");
}

std::optional<double> TableReader::non_negative(std::string_view key) const {
  auto v = number(key);
  if (v && *v < 0) fail(key, "must be >= 0");
  return v;
}

std::optional<std::int64_t> TableReader::integer(std::string_view key) const {
  const toml::node* n = table_.get(key);
  if (n == nullptr) return std::nullopt;
  if (auto i = n->value_exact<std::int64_t>()) return *i;
  fail(key, "must be an integer");
}

std::optional<std::uint64_t> TableReader::count(std::string_view key) const {
  auto v = integer(key);
  if (!v) return std::nullopt;
  if (*v < 0) fail(key, "must be >= 0");
  return static_cast<std::uint64_t>(*v);
}

std::optional<bool> TableReader::boolean(std::string_view key) const {
  const toml::node* n = table_.get(key);
  if (n == nullptr) return std::nullopt;
  if (auto b = n->value_exact<bool>()) return *b;
  fail(key, "must be true or false");
}

std::optional<std::string> TableReader::string(std::string_view key) const {
  const toml::node* n = table_.get(key);
  if (n == nullptr) return std::nullopt;
  if (auto s = n->value_exact<std::string>()) return *s;
  fail(key, "must be a string");
}

std::string TableReader::required_string(std::string_view key) const {
  auto s = string(key);
  if (!s) fail(key, "is required");
  return *s;
}

std::vector<std::string> TableReader::strings(std::string_view key) const {
  std::vector<std::string> out;
  const toml::node* n = table_.get(key);
  if (n == nullptr) return out;
  const toml::array* a = n->as_array();
  if (a == nullptr) fail(key, "must be an array of strings");
  for (const toml::node& e : *a) {
    auto s = e.value_exact<std::string>();
    if (!s) fail(key, "must be an array of strings");
    out.push_back(*s);
  }
  return out;
}

std::optional<std::vector<std::string>> TableReader::string_or_list(std::string_view key) const {
  const toml::node* n = table_.get(key);
  if (n == nullptr) return std::nullopt;
  if (auto s = n->value_exact<std::string>()) return std::vector<std::string>{*s};
  std::vector<std::string> out;
  if (const toml::array* a = n->as_array()) {
    for (const toml::node& e : *a) {
      if (auto s = e.value_exact<std::string>())
        out.push_back(*s);
      else if (auto i = e.value_exact<std::int64_t>())
        out.push_back(std::to_string(*i));
      else
        out.clear();
      if (out.empty()) break;
    }
  }
  if (out.empty()) fail(key, "expected text or a non-empty list of text");
  return out;
}

const toml::table* TableReader::table(std::string_view key) const {
  const toml::node* n = table_.get(key);
  if (n == nullptr) return nullptr;
  if (!n->is_table()) fail(key, "must be a table");
  return n->as_table();
}

std::vector<const toml::table*> TableReader::tables(std::string_view key) const {
  std::vector<const toml::table*> out;
  const toml::node* n = table_.get(key);
  if (n == nullptr) return out;
  if (n->is_table()) return {n->as_table()};
  const toml::array* a = n->as_array();
  if (a == nullptr) fail(key, "must be an array of tables ([[" + std::string(key) + "]])");
  for (const toml::node& e : *a) {
    if (!e.is_table()) fail(key, "must be an array of tables ([[" + std::string(key) + "]])");
    out.push_back(e.as_table());
  }
  return out;
}

}  // namespace dissem::scenario
