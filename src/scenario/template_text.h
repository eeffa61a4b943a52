// Text with placeholders, "{name}", "{expr}" or "{expr:format}", as the
// runner's templates (emulation/runner/templates.py) write them; "{{" and
// "}}" are literal braces. Parsed once, so syntax errors and unknown names
// show before anything is expanded. Formats: [width][.precision][f|e|g|%].
// Errors are TemplateError; the caller names the file and key.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/expression.h"
#include "scenario/value.h"

namespace dissem::scenario {

class TemplateText {
 public:
  explicit TemplateText(std::string_view text);

  const std::string& text() const { return text_; }
  std::set<std::string> names() const;
  // Throws TemplateError naming what `allowed` lacks.
  void check_names(const std::set<std::string>& allowed) const;

  std::string render(const Names& names) const;
  // The placeholder's own value when the text is exactly one unformatted
  // placeholder ("{reliability}"), else the rendered text.
  Value value(const Names& names) const;

 private:
  struct Part {
    std::string literal;           // when no expression
    std::vector<Expression> expr;  // zero or one
    std::string format;
  };
  std::string text_;
  std::vector<Part> parts_;
};

}  // namespace dissem::scenario
