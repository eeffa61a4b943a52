// A placeholder's value (a matrix value, a built-in such as the seed or a
// role's node ids): an integer, a number, true/false or text, as TOML and
// the runner's templates (emulation/runner/templates.py) know them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace dissem::scenario {

using Value = std::variant<std::int64_t, double, bool, std::string>;
using Names = std::map<std::string, Value, std::less<>>;  // placeholder name -> value

bool is_number(const Value& v);  // an integer or a number, not true/false
double as_double(const Value& v);  // requires is_number
// Equal as the runner compares matrix values: 1 == 1.0, text and booleans by value.
bool same_value(const Value& a, const Value& b);

// How a value is written into text: integral numbers without ".0" (243200,
// not 243200.0), others shortest round-trip, booleans true/false.
std::string value_text(const Value& v);
// How a value is quoted in messages: text in quotes, 1.0 with its ".0".
std::string value_repr(const Value& v);
// A value from a command line: true/false, an integer, a number, a quoted
// "text" (JSON escapes), or else the text itself.
Value value_from_text(std::string_view text);

}  // namespace dissem::scenario
