// Reads one TOML table of a scenario file: rejects unknown keys up front,
// then hands out typed values with errors (ScenarioError) that name the key
// and where it is.
#pragma once

#include <toml++/toml.h>  // Debian ships toml.h; used header-only (no library to link)

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dissem::sim {

class TableReader {
 public:
  TableReader(const toml::table& table, std::string where, const std::string& source,
              std::initializer_list<std::string_view> allowed);

  [[noreturn]] void fail(std::string_view key, std::string_view what) const;

  bool has(std::string_view key) const { return table_.contains(key); }

  std::optional<double> number(std::string_view key) const;
  std::optional<double> non_negative(std::string_view key) const;
  std::optional<std::int64_t> integer(std::string_view key) const;
  std::optional<std::uint64_t> count(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;
  std::optional<std::string> string(std::string_view key) const;
  std::string required_string(std::string_view key) const;
  std::vector<std::string> strings(std::string_view key) const;
  const toml::table* table(std::string_view key) const;
  // An array of tables, [[key]]; empty if absent.
  std::vector<const toml::table*> tables(std::string_view key) const;

  const std::string& where() const { return where_; }

 private:
  const toml::table& table_;
  std::string where_;
  const std::string& source_;
};

}  // namespace dissem::sim
