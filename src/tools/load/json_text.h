// A JSON string literal for any text (quotes, backslashes and control
// characters escaped), for the hand-written result lines of dissem-load and
// the TCP baseline.
#pragma once

#include <string>
#include <string_view>

namespace dissem::load {

std::string json_string(std::string_view text);

}  // namespace dissem::load
