#include "scenario/expression.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <system_error>

#include "scenario/expression_node.h"
#include "scenario/scenario_error.h"

namespace dissem::scenario {

namespace {

using Node = std::shared_ptr<const ExprNode>;
const std::vector<std::string_view> kFunctions = {"abs", "ceil", "float", "floor", "int", "max", "min", "round"};

struct Token {
  enum class Kind { Number, Name, Op } kind;
  std::string text;
};

std::vector<Token> tokenize(std::string_view t) {
  std::vector<Token> out;
  std::size_t i = 0;
  const auto digit = [&](std::size_t k) { return k < t.size() && std::isdigit(static_cast<unsigned char>(t[k])); };
  while (i < t.size()) {
    const char c = t[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (digit(i) || (c == '.' && digit(i + 1))) {
      std::size_t j = i;
      while (digit(j)) ++j;
      if (j < t.size() && t[j] == '.') ++j;
      while (digit(j)) ++j;
      if (j < t.size() && (t[j] == 'e' || t[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < t.size() && (t[k] == '+' || t[k] == '-')) ++k;
        if (digit(k)) {
          j = k;
          while (digit(j)) ++j;
        }
      }
      out.push_back({Token::Kind::Number, std::string(t.substr(i, j - i))});
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
      out.push_back({Token::Kind::Name, std::string(t.substr(i, j - i))});
      i = j;
    } else if (t.substr(i, 2) == "**" || t.substr(i, 2) == "//") {
      out.push_back({Token::Kind::Op, std::string(t.substr(i, 2))});
      i += 2;
    } else if (std::string_view("-+*/%(),").find(c) != std::string_view::npos) {
      out.push_back({Token::Kind::Op, std::string(1, c)});
      ++i;
    } else {
      throw TemplateError(fmt::format("unexpected character '{}' in {{{}}}", c, t));
    }
  }
  return out;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text), tokens_(tokenize(text)) {}

  Node parse() {
    if (tokens_.empty()) throw TemplateError("empty placeholder {}");
    Node n = expr();
    if (i_ != tokens_.size()) throw TemplateError(fmt::format("unexpected '{}' in {{{}}}", tokens_[i_].text, text_));
    return n;
  }

 private:
  std::string_view peek() const { return i_ < tokens_.size() ? std::string_view(tokens_[i_].text) : ""; }
  bool peek_is(std::initializer_list<std::string_view> ops) const {
    return i_ < tokens_.size() && tokens_[i_].kind == Token::Kind::Op &&
           std::find(ops.begin(), ops.end(), peek()) != ops.end();
  }
  const Token& take(std::string_view want = {}) {
    if (i_ >= tokens_.size() || (!want.empty() && peek() != want))
      throw TemplateError(fmt::format("expected {} but found {} in {{{}}}", want.empty() ? "a value" : "'" + std::string(want) + "'",
                                      i_ < tokens_.size() ? "'" + tokens_[i_].text + "'" : "the end", text_));
    return tokens_[i_++];
  }
  static Node binary(std::string op, Node a, Node b) {
    return std::make_shared<ExprNode>(ExprNode{ExprNode::Kind::Binary, {}, std::move(op), {std::move(a), std::move(b)}});
  }

  Node expr() {
    Node n = term();
    while (peek_is({"+", "-"})) {
      std::string op = take().text;
      n = binary(op, n, term());
    }
    return n;
  }
  Node term() {
    Node n = unary();
    while (peek_is({"*", "/", "//", "%"})) {
      std::string op = take().text;
      n = binary(op, n, unary());
    }
    return n;
  }
  Node unary() {
    if (peek_is({"-", "+"})) {
      const bool negate = take().text == "-";
      Node inner = unary();
      return negate ? std::make_shared<ExprNode>(ExprNode{ExprNode::Kind::Negate, {}, "-", {inner}}) : inner;
    }
    Node n = atom();
    if (peek_is({"**"})) {
      take();
      n = binary("**", n, unary());
    }
    return n;
  }
  Node atom() {
    const Token tok = take();
    if (tok.kind == Token::Kind::Number) return number(tok.text);
    if (tok.kind == Token::Kind::Name) {
      if (!peek_is({"("})) return std::make_shared<ExprNode>(ExprNode{ExprNode::Kind::Name, {}, tok.text, {}});
      if (std::find(kFunctions.begin(), kFunctions.end(), tok.text) == kFunctions.end())
        throw TemplateError(fmt::format("unknown function {}() in {{{}}} (known: {})", tok.text, text_,
                                        fmt::join(kFunctions, ", ")));
      take("(");
      ExprNode call{ExprNode::Kind::Call, {}, tok.text, {}};
      if (!peek_is({")"})) {
        call.args.push_back(expr());
        while (peek_is({","})) {
          take();
          call.args.push_back(expr());
        }
      }
      take(")");
      return std::make_shared<ExprNode>(std::move(call));
    }
    if (tok.text == "(") {
      Node n = expr();
      take(")");
      return n;
    }
    throw TemplateError(fmt::format("unexpected '{}' in {{{}}}", tok.text, text_));
  }
  static Node number(const std::string& text) {
    ExprNode n{ExprNode::Kind::Number, {}, text, {}};
    std::int64_t i = 0;
    const char* end = text.data() + text.size();
    if (text.find_first_of(".eE") == std::string::npos && std::from_chars(text.data(), end, i).ec == std::errc()) {
      n.number = i;
    } else {
      double d = 0;
      std::from_chars(text.data(), end, d);
      n.number = d;
    }
    return std::make_shared<ExprNode>(std::move(n));
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  std::size_t i_ = 0;
};

}  // namespace

Expression Expression::parse(std::string_view text) {
  Expression e;
  e.text_ = std::string(text);
  e.root_ = Parser(e.text_).parse();
  return e;
}

namespace {

void collect_names(const ExprNode& n, std::set<std::string>& out) {
  if (n.kind == ExprNode::Kind::Name) out.insert(n.text);
  for (const auto& a : n.args) collect_names(*a, out);
}

}  // namespace

std::set<std::string> Expression::names() const {
  std::set<std::string> out;
  collect_names(*root_, out);
  return out;
}

}  // namespace dissem::scenario
