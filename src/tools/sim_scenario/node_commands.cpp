#include "tools/sim_scenario/node_commands.h"

#include <fmt/format.h>

#include "scenario/scenario_error.h"
#include "scenario/shell_words.h"

namespace dissem::sim_scenario {
namespace {

using scenario::fail;

std::vector<std::string> rendered(const scenario::CommandSpec& c, const scenario::Names& names, const std::string& source) {
  std::vector<std::string> out;
  try {
    for (const auto& part : c.parts) out.push_back(part.render(names));
  } catch (const scenario::TemplateError& e) {
    fail(source, c.key, e.what());
  }
  return out;
}

bool is_status_test(const scenario::SimpleCommand& c) {
  return c.words.size() >= 2 && c.words[0] == "test" && c.words[1] == "$?";
}

// `word` runs `program` (by name or by a path to it).
bool runs(std::string_view word, std::string_view program) {
  return word == program || (word.size() > program.size() && word.ends_with(program) &&
                             word[word.size() - program.size() - 1] == '/');
}

// The program's words (another program's, for the caller to name), or none
// and a reason it is not one program dissem-sim reads.
std::vector<std::string> one_program(const scenario::CommandSpec& c, const scenario::Names& names,
                                     const std::string& source, std::string_view program, std::string* why) {
  std::vector<std::string> words = rendered(c, names, source);
  if (c.shell) {
    std::vector<scenario::SimpleCommand> parts;
    try {
      parts = scenario::split_shell(words.front());
    } catch (const scenario::ShellSyntaxError& e) {
      *why = e.what();
      return {};
    }
    if (parts.empty()) {
      *why = "it runs nothing";
      return {};
    }
    words = parts.front().words;
    if (!words.empty() && words.front() == "exec") words.erase(words.begin());
    if (words.empty() || !runs(words.front(), program)) return words;  // the caller names it
    for (std::size_t i = 1; i < parts.size(); ++i)
      if (!is_status_test(parts[i]) || (parts[i - 1].then != "||" && parts[i - 1].then != ";")) {
        *why = fmt::format("it runs '{}' after the program (only `|| test $? ...` may follow)", parts[i].words.front());
        return {};
      }
    if (parts.front().then == "&" || parts.front().then == "|" || parts.front().then == "&&") {
      *why = fmt::format("'{}' after the program", parts.front().then);
      return {};
    }
    return words;
  }
  if (!words.empty() && words.front() == "exec") words.erase(words.begin());
  if (words.empty()) *why = "it runs nothing";
  return words;
}

}  // namespace

std::vector<std::string> program_argv(const scenario::CommandSpec& command, const scenario::Names& names,
                                      const std::string& source, std::string_view program) {
  std::string why;
  auto words = one_program(command, names, source, program, &why);
  if (words.empty())
    fail(source, command.key, fmt::format("the simulator runs {} here, and cannot read this command: {}", program, why));
  if (!runs(words.front(), program))
    fail(source, command.key,
         fmt::format("the simulator runs {} here, not '{}' (it models dissemd and dissem-load only)", program, words.front()));
  return words;
}

}  // namespace dissem::sim_scenario
