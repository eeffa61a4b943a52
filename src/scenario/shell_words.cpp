#include "scenario/shell_words.h"

#include <fmt/format.h>

#include <cctype>

namespace dissem::scenario {
namespace {

class Splitter {
 public:
  explicit Splitter(std::string_view text) : t_(text) {}

  std::vector<SimpleCommand> run() {
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == ' ' || c == '\t' || c == '\n') {
        end_word();
        ++i_;
      } else if (c == '\'') {
        quoted_single();
      } else if (c == '"') {
        quoted_double();
      } else if (c == '\\') {
        if (i_ + 1 < t_.size() && t_[i_ + 1] != '\n') word_ += t_[i_ + 1];
        in_word_ = true;
        i_ += 2;
      } else if (c == '&' || c == '|' || c == ';') {
        operator_(c);
      } else if (c == '<' || c == '>' || c == '(' || c == ')' || c == '`' || (c == '#' && !in_word_)) {
        throw ShellSyntaxError(fmt::format("'{}' is shell syntax a simple command does not have", c));
      } else {
        word_ += c;
        in_word_ = true;
        ++i_;
      }
    }
    end_word();
    if (!current_.words.empty()) out_.push_back(std::move(current_));
    else if (!out_.empty() && !out_.back().then.empty() && out_.back().then != ";" && out_.back().then != "&")
      throw ShellSyntaxError(fmt::format("nothing after '{}'", out_.back().then));
    return std::move(out_);
  }

 private:
  void end_word() {
    if (in_word_) current_.words.push_back(std::move(word_));
    word_.clear();
    in_word_ = false;
  }
  void operator_(char c) {
    end_word();
    std::string op(1, c);
    if ((c == '&' || c == '|') && i_ + 1 < t_.size() && t_[i_ + 1] == c) op += c;
    i_ += op.size();
    if (current_.words.empty()) throw ShellSyntaxError(fmt::format("'{}' with no command before it", op));
    current_.then = op;
    out_.push_back(std::move(current_));
    current_ = {};
  }
  void quoted_single() {
    const auto end = t_.find('\'', i_ + 1);
    if (end == std::string_view::npos) throw ShellSyntaxError("an unclosed ' quote");
    word_ += t_.substr(i_ + 1, end - i_ - 1);
    in_word_ = true;
    i_ = end + 1;
  }
  void quoted_double() {
    in_word_ = true;
    for (++i_; i_ < t_.size() && t_[i_] != '"'; ++i_) {
      if (t_[i_] == '\\' && i_ + 1 < t_.size() && std::string_view("\"\\$`").find(t_[i_ + 1]) != std::string_view::npos)
        ++i_;
      word_ += t_[i_];
    }
    if (i_ >= t_.size()) throw ShellSyntaxError("an unclosed \" quote");
    ++i_;
  }

  std::string_view t_;
  std::size_t i_ = 0;
  std::string word_;
  bool in_word_ = false;
  SimpleCommand current_;
  std::vector<SimpleCommand> out_;
};

}  // namespace

std::vector<SimpleCommand> split_shell(std::string_view text) { return Splitter(text).run(); }

}  // namespace dissem::scenario
