// The one error of the scenario language: a scenario that cannot be read or
// expanded. Its text names the file and the key ("s.toml: topology.radius:
// 2 is above 1.414"), as the runner's own errors do.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace dissem::scenario {

class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A placeholder that cannot be parsed or evaluated; the caller adds the file and key.
class TemplateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "source: key: what" (or "source: what" without a key).
[[noreturn]] inline void fail(std::string_view source, std::string_view key, std::string_view what) {
  std::string text(source);
  if (!key.empty()) text += ": " + std::string(key);
  text += ": " + std::string(what);
  throw ScenarioError(text);
}

}  // namespace dissem::scenario
