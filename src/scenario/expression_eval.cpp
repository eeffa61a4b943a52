// Expression::evaluate: Python's meaning of each operator and function, so a
// placeholder computes the same value here as in the runner's templates.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "scenario/expression.h"
#include "scenario/expression_node.h"
#include "scenario/scenario_error.h"

namespace dissem::scenario {

namespace {

using Int = std::int64_t;

struct Evaluator {
  const Names& names;
  const std::string& text;

  [[noreturn]] void error(const std::string& what) const { throw TemplateError(what); }

  Value number_of(const Value& v) const {
    if (!is_number(v)) error(fmt::format("{} is not a number in '{}'", value_repr(v), text));
    return v;
  }
  static bool both_int(const Value& a, const Value& b) {
    return std::holds_alternative<Int>(a) && std::holds_alternative<Int>(b);
  }
  // Integer arithmetic as Python's, refused where an int64 would overflow.
  void check(bool overflowed) const {
    if (overflowed) error(fmt::format("overflow in '{}'", text));
  }
  Value real(double d) const {
    if (!std::isfinite(d)) error(fmt::format("the result is not a finite number in '{}'", text));
    return d;
  }

  Value binary(const std::string& op, const Value& a, const Value& b) const {
    const double x = as_double(a);
    const double y = as_double(b);
    if ((op == "/" || op == "//" || op == "%") && y == 0) error(fmt::format("division by zero in '{}'", text));
    if (op == "**" && std::fabs(y) > 64) error(fmt::format("exponent too large in '{}'", text));
    if (both_int(a, b)) {
      const Int i = std::get<Int>(a);
      const Int j = std::get<Int>(b);
      Int r = 0;
      if (op == "+") {
        check(__builtin_add_overflow(i, j, &r));
        return r;
      }
      if (op == "-") {
        check(__builtin_sub_overflow(i, j, &r));
        return r;
      }
      if (op == "*") {
        check(__builtin_mul_overflow(i, j, &r));
        return r;
      }
      if (op == "//" || op == "%") {
        check(i == std::numeric_limits<Int>::min() && j == -1);
        Int q = i / j;
        if (i % j != 0 && ((i < 0) != (j < 0))) --q;
        return op == "//" ? q : i - q * j;
      }
      if (op == "**" && j >= 0) {
        Int p = 1;
        for (Int k = 0; k < j; ++k) check(__builtin_mul_overflow(p, i, &p));
        return p;
      }
    }
    if (op == "+") return real(x + y);
    if (op == "-") return real(x - y);
    if (op == "*") return real(x * y);
    if (op == "/") return real(x / y);
    if (op == "//") return real(std::floor(x / y));
    if (op == "%") {
      double r = std::fmod(x, y);
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
      return real(r);
    }
    if (x < 0 && y != std::floor(y)) error(fmt::format("a negative number to a fractional power in '{}'", text));
    return real(std::pow(x, y));
  }

  static Value to_int(double d) { return static_cast<Int>(d); }

  // Python's round(): halves to even; with digits, the nearest decimal.
  Value round(const Value& v, const Value* digits) const {
    if (digits == nullptr) {
      if (std::holds_alternative<Int>(v)) return v;
      return to_int(std::nearbyint(as_double(v)));
    }
    const Int n = static_cast<Int>(as_double(*digits));
    if (std::holds_alternative<Int>(v) && n >= 0) return v;
    if (n >= 0 && n <= 300) {
      char buf[512];
      std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(n), as_double(v));
      return real(std::strtod(buf, nullptr));
    }
    const double scale = std::pow(10.0, static_cast<double>(-n));
    return real(std::nearbyint(as_double(v) / scale) * scale);
  }

  Value call(const std::string& fn, const std::vector<Value>& args) const {
    const auto arity = [&](std::size_t lo, std::size_t hi) {
      if (args.size() < lo || args.size() > hi)
        error(fmt::format("{}() failed in '{}': takes {} argument{}", fn, text, lo == hi ? fmt::format("{}", lo) : fmt::format("{} to {}", lo, hi),
                          hi == 1 ? "" : "s"));
    };
    if (fn == "int" && args.size() == 1 && std::holds_alternative<bool>(args[0])) return Int{std::get<bool>(args[0])};
    for (const auto& a : args) number_of(a);
    if (fn == "min" || fn == "max") {
      arity(2, std::numeric_limits<std::size_t>::max());
      const Value* best = &args[0];
      for (const auto& a : args)
        if (fn == "min" ? as_double(a) < as_double(*best) : as_double(a) > as_double(*best)) best = &a;
      return *best;
    }
    if (fn == "round") {
      arity(1, 2);
      return round(args[0], args.size() == 2 ? &args[1] : nullptr);
    }
    arity(1, 1);
    const double x = as_double(args[0]);
    if (fn == "int") return std::holds_alternative<Int>(args[0]) ? args[0] : to_int(std::trunc(x));
    if (fn == "float") return x;
    if (fn == "ceil") return to_int(std::ceil(x));
    if (fn == "floor") return to_int(std::floor(x));
    if (std::holds_alternative<Int>(args[0])) return Int{std::llabs(std::get<Int>(args[0]))};
    return std::fabs(x);  // abs
  }

  Value eval(const ExprNode& n) const {
    switch (n.kind) {
      case ExprNode::Kind::Number:
        return n.number;
      case ExprNode::Kind::Name: {
        const auto it = names.find(n.text);
        if (it == names.end()) {
          std::string known;
          for (const auto& [k, v] : names) known += (known.empty() ? "" : ", ") + k;
          error(fmt::format("unknown name '{}' in '{}' (known here: {})", n.text, text, known));
        }
        return it->second;
      }
      case ExprNode::Kind::Negate: {
        const Value v = number_of(eval(*n.args[0]));
        if (const auto* i = std::get_if<Int>(&v)) {
          Int r = 0;
          check(__builtin_sub_overflow(Int{0}, *i, &r));
          return r;
        }
        return -std::get<double>(v);
      }
      case ExprNode::Kind::Binary:
        return binary(n.text, number_of(eval(*n.args[0])), number_of(eval(*n.args[1])));
      case ExprNode::Kind::Call: {
        std::vector<Value> args;
        for (const auto& a : n.args) args.push_back(eval(*a));
        return call(n.text, args);
      }
    }
    error(fmt::format("cannot evaluate '{}'", text));
  }
};

}  // namespace

Value Expression::evaluate(const Names& names) const { return Evaluator{names, text_}.eval(*root_); }

}  // namespace dissem::scenario
