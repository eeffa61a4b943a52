#include "scenario/param.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <system_error>
#include <utility>

#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

std::string lowered(std::string s) {
  const auto b = s.find_first_not_of(" \t\n");
  const auto e = s.find_last_not_of(" \t\n");
  s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Value convert(std::string_view source, std::string_view key, Param::Kind kind, const Value& value, Bounds bounds) {
  const auto refuse = [&](const std::string& what) { fail(source, key, what); };
  if (kind == Param::Kind::Boolean) {
    if (std::holds_alternative<bool>(value)) return value;
    if (const auto* s = std::get_if<std::string>(&value)) {
      const auto t = lowered(*s);
      if (t == "true" || t == "false") return t == "true";
    }
    if (is_number(value) && (as_double(value) == 0 || as_double(value) == 1)) return as_double(value) == 1;
    refuse(value_repr(value) + " is not true or false");
  }
  if (std::holds_alternative<bool>(value)) refuse(value_repr(value) + " is not a number");
  Value v = value;
  if (const auto* s = std::get_if<std::string>(&value)) {
    const auto t = lowered(*s);
    double d = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), d);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size()) refuse(value_repr(value) + " is not a number");
    v = d;
  }
  if (!std::isfinite(as_double(v))) refuse(value_repr(v) + " is not a finite number");
  if (kind == Param::Kind::Integer) {
    const double d = as_double(v);
    if (d != std::trunc(d)) refuse(value_repr(v) + " is not a whole number");
    v = static_cast<std::int64_t>(d);
  }
  if (bounds.min && as_double(v) < *bounds.min) refuse(fmt::format("{} is below {:g}", value_repr(v), *bounds.min));
  if (bounds.max && as_double(v) > *bounds.max) refuse(fmt::format("{} is above {:g}", value_repr(v), *bounds.max));
  return v;
}

Param::Param(std::string source, std::string key, Kind kind, Value constant, Bounds bounds)
    : source_(std::move(source)), key_(std::move(key)), kind_(kind), bounds_(bounds) {
  constant_ = convert(source_, key_, kind_, constant, bounds_);
}

Param::Param(std::string source, std::string key, Kind kind, TemplateText text, Bounds bounds)
    : source_(std::move(source)), key_(std::move(key)), kind_(kind), text_(std::move(text)), bounds_(bounds) {}

Value Param::resolve(const Names& names) const {
  if (constant_) return *constant_;
  Value v;
  try {
    v = text_->value(names);
  } catch (const TemplateError& e) {
    fail(source_, key_, e.what());
  }
  return convert(source_, key_, kind_, v, bounds_);
}

Param make_param(const TableReader& r, const toml::node& n, const std::string& key, const std::set<std::string>& allowed,
                 Param::Kind kind, Bounds bounds) {
  if (auto s = n.value_exact<std::string>()) {
    try {
      TemplateText t(*s);
      t.check_names(allowed);
      return Param(r.source(), key, kind, std::move(t), bounds);
    } catch (const TemplateError& e) {
      fail(r.source(), key, e.what());
    }
  }
  if (auto b = n.value_exact<bool>()) return Param(r.source(), key, kind, Value{*b}, bounds);
  if (auto i = n.value_exact<std::int64_t>()) return Param(r.source(), key, kind, Value{*i}, bounds);
  if (auto d = n.value_exact<double>()) return Param(r.source(), key, kind, Value{*d}, bounds);
  fail(r.source(), key, kind == Param::Kind::Boolean ? "expected true or false" : "expected a number");
}

std::optional<Param> read_param(const TableReader& r, std::string_view key, const std::set<std::string>& allowed,
                                Param::Kind kind, Bounds bounds) {
  const toml::node* n = r.node(key);
  if (n == nullptr) return std::nullopt;
  return make_param(r, *n, r.path(key), allowed, kind, bounds);
}

Param required_param(const TableReader& r, std::string_view key, const std::set<std::string>& allowed, Param::Kind kind,
                     Bounds bounds) {
  auto p = read_param(r, key, allowed, kind, bounds);
  if (!p) r.fail(key, "is required");
  return std::move(*p);
}

}  // namespace dissem::scenario
