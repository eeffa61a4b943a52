// A configuration file read and printed key by key: each table of the
// document is a section, each "section.key" a setting whose TOML value is
// checked against its type and handed on as text (config/toml_value.h).
// dissemd's configuration (daemon/config_toml.h) and the NORM gateway's
// (tools/norm_gateway/gateway_config.h) are such documents, so both refuse
// and print the same way.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/toml_value.h"

namespace dissem::config {

// What a host's keys are, for reading a document.
struct DocumentKeys {
  std::vector<std::string_view> sections;  // the tables a document may hold
  // The type `key` ("section.name") takes; nullopt for an unknown key.
  std::function<std::optional<ValueType>(const std::string& key)> type_of;
  // Sets `key` from its text; throws SettingError or ConfigError naming it.
  std::function<void(const std::string& key, const std::string& text)> set;
  // Sections whose sub-tables hold dotted keys ("controllers": its
  // [controllers.forwarding] name = ... is controllers.forwarding.name).
  std::vector<std::string_view> nested;
};

// Applies every key of the document in order. Throws ConfigError on the
// first refusal, with where it stands: "norm.port: 70000 is out of range
// [1, 65535] (gw.toml:7)", "unknown key 'net.prot' (d.toml:3)",
// "unknown table [nets] (d.toml:1)", or the parser's own message.
void apply_document(std::string_view text, const std::string& source, const DocumentKeys& keys);

// The text of a file, for apply_document. Throws ConfigError naming `path`.
std::string read_document_file(const std::string& path);

// One key's value as printed.
struct PrintedKey {
  std::string key;  // "section.name"
  ValueType type;
  std::string text;
  // Not empty: the key is printed as this comment instead ("not set, ...").
  std::string unset_note;
};

// `header` (comment lines, may be empty), then each section's keys under
// its [section] line, in the order given. The text reads back with
// apply_document to the same values.
std::string print_document(const std::string& header, const std::vector<PrintedKey>& keys);

}  // namespace dissem::config
