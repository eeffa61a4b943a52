// One setting's value between TOML and the text form key tables read
// (config/key_table.h): a TOML value is checked against the type its key
// takes and turned into text; a setting's text is printed as the TOML value
// that reads back to it.
#pragma once

#include <toml++/toml.h>  // header-only use

#include <string>

namespace dissem::config {

// The TOML type a key takes.
enum class ValueType {
  Integer,     // a TOML integer
  Number,      // an integer or a float
  Boolean,     // true or false
  String,      // a string
  StringList,  // an array of strings; the text joins them with ','
  Scalar,      // any of integer, float, boolean, string: the key's table reads the text
};

// "a string", "an integer", ...: what `n` is, for messages.
std::string type_name(const toml::node& n);

// The text form of `n` for a key of `type`. Throws SettingError naming
// `key` when `n` is not of that type ("norm.port: expected an integer, got
// a string"), or a list item cannot be joined (holds a comma, is empty).
std::string value_text(const std::string& key, ValueType type, const toml::node& n);

// The TOML text of a setting given as `text`: numbers and booleans bare,
// strings quoted (everything outside printable ASCII escaped), lists as
// arrays; a Scalar as the TOML type its text reads as.
std::string value_toml(ValueType type, const std::string& text);

}  // namespace dissem::config
