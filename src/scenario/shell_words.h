// A node command's shell text read as /bin/sh would split it: simple
// commands (words, quotes and backslashes resolved; $-expansions left as
// written) and the operators between them (&&, ||, ;, |, &). Redirections,
// parentheses and here-documents are not read: an engine that needs to
// understand a command (dissem-sim) refuses them by name.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dissem::scenario {

struct SimpleCommand {
  std::vector<std::string> words;
  std::string then;  // the operator after it ("&&", "||", ";", "|", "&"), "" at the end
};

class ShellSyntaxError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws ShellSyntaxError for an unclosed quote or shell syntax beyond the above.
std::vector<SimpleCommand> split_shell(std::string_view text);

}  // namespace dissem::scenario
