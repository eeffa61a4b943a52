// Reading a TOML document the one way dissemd's configuration
// (daemon/config_toml.h), dissem-sim's scenario files (sim/scenario_file.h)
// and the NORM gateway's configuration do: the input guard first
// (config/toml_input_guard.h), then toml++, whose refusal is told as
// "<source>:<line>:<column>: <what>".
#pragma once

#include <toml++/toml.h>  // header-only use

#include <optional>
#include <string>
#include <string_view>

namespace dissem::config {

// Parses `text` (named `source` in messages) into `out`. Returns what is
// wrong with it, or nullopt when `out` holds the document.
std::optional<std::string> parse_toml(std::string_view text, const std::string& source, toml::table& out);

// " (<source>:<line>)": where `node` stands, to append to a message about it.
std::string toml_where(const std::string& source, const toml::node& node);

}  // namespace dissem::config
