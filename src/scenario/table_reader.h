// Reads one TOML table of a scenario: rejects unknown keys up front, then
// hands out typed values whose errors (ScenarioError) name the key and the
// file. The one table reader of the C++ scenario readers.
//
// Style::Dotted names a key by its full dotted path, as the scenario
// language does ("s.toml: topology.override[1].from: ..."); Style::Phrase
// is the simulator's older format ("s.toml: key 'from' in [[links.override]] #1 ...").
#pragma once

#include <toml++/toml.h>  // Debian ships toml.h; used header-only (no library to link)

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dissem::scenario {

class TableReader {
 public:
  enum class Style { Dotted, Phrase };
  // A key an older form of the file had: refused with what replaced it
  // ("was renamed to ..."), before any unknown key.
  struct Retired {
    std::string_view key;
    std::string_view why;
  };

  TableReader(const toml::table& table, std::string where, const std::string& source,
              std::initializer_list<std::string_view> allowed, Style style = Style::Phrase)
      : TableReader(table, std::move(where), source, std::vector<std::string_view>(allowed), style) {}
  TableReader(const toml::table& table, std::string where, const std::string& source,
              const std::vector<std::string_view>& allowed, Style style, const std::vector<Retired>& retired = {});

  [[noreturn]] void fail(std::string_view key, std::string_view what) const;

  bool has(std::string_view key) const { return table_.contains(key); }
  const toml::node* node(std::string_view key) const { return table_.get(key); }
  // The key's full name: "where.key" (Dotted), or the key itself.
  std::string path(std::string_view key) const;

  std::optional<double> number(std::string_view key) const;
  std::optional<double> non_negative(std::string_view key) const;
  std::optional<std::int64_t> integer(std::string_view key) const;
  std::optional<std::uint64_t> count(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;
  std::optional<std::string> string(std::string_view key) const;
  std::string required_string(std::string_view key) const;
  std::vector<std::string> strings(std::string_view key) const;
  // Text, or a non-empty list of text and integers (node selectors): as text.
  std::optional<std::vector<std::string>> string_or_list(std::string_view key) const;
  const toml::table* table(std::string_view key) const;
  // An array of tables, [[key]]; empty if absent.
  std::vector<const toml::table*> tables(std::string_view key) const;

  const std::string& where() const { return where_; }
  const std::string& source() const { return source_; }
  const toml::table& data() const { return table_; }

 private:
  const toml::table& table_;
  std::string where_;
  const std::string& source_;
  Style style_;
};

// A path's part for a table of an array: "topology.override[2]" (1-based).
std::string item_path(std::string_view array_path, std::size_t index);

}  // namespace dissem::scenario
