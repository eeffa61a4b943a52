// The placeholders' arithmetic, e.g. {capacity_kbps * 1024} or
// {max(1, round(bytes / 1024))}: the language of the runner's templates
// (emulation/runner/expressions.py), with Python's meaning of each operator.
//
//   expr  := term (('+' | '-') term)*
//   term  := unary (('*' | '/' | '//' | '%') unary)*
//   unary := ('-' | '+') unary | power
//   power := atom ('**' unary)?
//   atom  := NUMBER | NAME | NAME '(' [expr (',' expr)*] ')' | '(' expr ')'
//
// Functions: int, float, round, min, max, ceil, floor, abs. Errors are
// TemplateError (scenario_error.h); the caller names the file and key.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/value.h"

namespace dissem::scenario {

struct ExprNode;

class Expression {
 public:
  static Expression parse(std::string_view text);

  Value evaluate(const Names& names) const;
  std::set<std::string> names() const;  // every variable it reads
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::shared_ptr<const ExprNode> root_;
};

}  // namespace dissem::scenario
