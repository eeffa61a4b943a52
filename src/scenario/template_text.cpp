#include "scenario/template_text.h"

#include <fmt/format.h>

#include <regex>

#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

const std::regex kFormat(R"(^(\d*)(?:\.(\d+))?([fFeEgG%]?)$)");

std::string formatted(const Value& v, const std::string& spec, const std::string& text) {
  std::smatch m;
  if (!std::regex_match(spec, m, kFormat)) throw TemplateError(fmt::format("bad format '{}' in '{}'", spec, text));
  if (!is_number(v)) throw TemplateError(fmt::format("cannot format {} with '{}' in '{}'", value_repr(v), spec, text));
  const int width = m[1].length() ? std::stoi(m[1]) : 0;
  std::string type = m[3].str();
  double x = as_double(v);
  std::string suffix;
  if (type == "%") {
    x *= 100;
    type = "f";
    suffix = "%";
  }
  const int precision = m[2].matched ? std::stoi(m[2]) : (type.empty() ? -1 : 6);
  std::string out;
  if (type.empty() && precision < 0)
    out = value_text(v);
  else if (type.empty())
    out = fmt::format("{:.{}g}", x, precision);
  else
    out = fmt::format(fmt::runtime("{:." + std::to_string(precision) + type + "}"), x);
  out += suffix;
  if (static_cast<int>(out.size()) < width) out.insert(0, static_cast<std::size_t>(width) - out.size(), ' ');
  return out;
}

}  // namespace

TemplateText::TemplateText(std::string_view text) : text_(text) {
  std::string literal;
  std::size_t i = 0;
  const auto flush = [&] {
    if (!literal.empty()) parts_.push_back({std::move(literal), {}, {}});
    literal.clear();
  };
  while (i < text_.size()) {
    const char c = text_[i];
    if (c == '{' && text_.compare(i, 2, "{{") == 0) {
      literal += '{';
      i += 2;
    } else if (c == '}' && text_.compare(i, 2, "}}") == 0) {
      literal += '}';
      i += 2;
    } else if (c == '}') {
      throw TemplateError(fmt::format("single '}}' in '{}' (write '}}}}' for a literal brace)", text_));
    } else if (c == '{') {
      const std::size_t end = text_.find('}', i + 1);
      const std::size_t inner = text_.find('{', i + 1);
      if (end == std::string::npos || inner < end)
        throw TemplateError(fmt::format("unclosed '{{' in '{}' (write '{{{{' for a literal brace)", text_));
      const std::string body = text_.substr(i + 1, end - i - 1);
      const std::size_t colon = body.find(':');
      flush();
      Part p{{}, {Expression::parse(body.substr(0, colon))}, colon == std::string::npos ? "" : body.substr(colon + 1)};
      if (!p.format.empty() && !std::regex_match(p.format, kFormat))
        throw TemplateError(fmt::format("bad format '{}' in {{{}}}", p.format, body));
      parts_.push_back(std::move(p));
      i = end + 1;
    } else {
      literal += c;
      ++i;
    }
  }
  flush();
}

std::set<std::string> TemplateText::names() const {
  std::set<std::string> out;
  for (const auto& p : parts_)
    for (const auto& e : p.expr) out.merge(e.names());
  return out;
}

void TemplateText::check_names(const std::set<std::string>& allowed) const {
  std::vector<std::string> unknown;
  for (const auto& n : names())
    if (!allowed.contains(n)) unknown.push_back(n);
  if (unknown.empty()) return;
  throw TemplateError(fmt::format("unknown placeholder name{} {} (known here: {})", unknown.size() > 1 ? "s" : "",
                                  fmt::join(unknown, ", "), fmt::join(allowed, ", ")));
}

std::string TemplateText::render(const Names& names) const {
  std::string out;
  for (const auto& p : parts_) {
    if (p.expr.empty()) {
      out += p.literal;
      continue;
    }
    const Value v = p.expr.front().evaluate(names);
    out += p.format.empty() ? value_text(v) : formatted(v, p.format, text_);
  }
  return out;
}

Value TemplateText::value(const Names& names) const {
  if (parts_.size() == 1 && !parts_[0].expr.empty() && parts_[0].format.empty()) return parts_[0].expr[0].evaluate(names);
  return render(names);
}

}  // namespace dissem::scenario
