// A node of a parsed Expression (expression.h); shared by its parser and its evaluator.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "scenario/value.h"

namespace dissem::scenario {

struct ExprNode {
  enum class Kind { Number, Name, Negate, Binary, Call } kind = Kind::Number;
  Value number;      // Kind::Number
  std::string text;  // the name, the operator or the function
  std::vector<std::shared_ptr<const ExprNode>> args;
};

}  // namespace dissem::scenario
