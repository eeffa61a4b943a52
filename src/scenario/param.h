// A scalar of a scenario written literally (0.9, true) or as a template
// resolved per cell ("{reliability}", "{capacity_kbps * 1024}"). Resolving
// checks the type and bounds again, so a template that yields 1.5 for a
// reliability is still reported by its key.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "scenario/table_reader.h"
#include "scenario/template_text.h"
#include "scenario/value.h"

namespace dissem::scenario {

struct Bounds {
  std::optional<double> min;
  std::optional<double> max;
};

class Param {
 public:
  enum class Kind { Number, Integer, Boolean };

  Param(std::string source, std::string key, Kind kind, Value constant, Bounds bounds);
  Param(std::string source, std::string key, Kind kind, TemplateText text, Bounds bounds);

  Value resolve(const Names& names) const;
  double number(const Names& names) const { return as_double(resolve(names)); }
  bool boolean(const Names& names) const { return std::get<bool>(resolve(names)); }
  // The value when it is written literally.
  const std::optional<Value>& constant() const { return constant_; }
  const std::string& key() const { return key_; }

 private:
  std::string source_;
  std::string key_;
  Kind kind_;
  std::optional<Value> constant_;
  std::optional<TemplateText> text_;
  Bounds bounds_;
};

// `value` as `kind` within `bounds`, or a ScenarioError naming source and key.
Value convert(std::string_view source, std::string_view key, Param::Kind kind, const Value& value, Bounds bounds);

// The parameter at `key` (a template may use `allowed` names); nullopt when absent.
std::optional<Param> read_param(const TableReader& r, std::string_view key, const std::set<std::string>& allowed,
                                Param::Kind kind, Bounds bounds = {});
// The same, required.
Param required_param(const TableReader& r, std::string_view key, const std::set<std::string>& allowed, Param::Kind kind,
                     Bounds bounds = {});
// A parameter from one value of TOML (a list item); `key` is its full name.
Param make_param(const TableReader& r, const toml::node& n, const std::string& key, const std::set<std::string>& allowed,
                 Param::Kind kind, Bounds bounds = {});

}  // namespace dissem::scenario
