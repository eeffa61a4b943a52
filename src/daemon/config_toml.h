// The TOML form of DaemonConfig: tables [node] [net] [cache] [ipc] [log]
// [security] [engine] [controllers], keys as in daemon_keys.h. Reading
// applies every key of the document through set_value; printing writes every
// key, so the printed text parses back to the same configuration.
#pragma once

#include <string>
#include <string_view>

#include "daemon/daemon_config.h"

namespace dissem::daemon {

// Applies the keys of a TOML document onto `config`. `source` (a file name)
// is quoted in errors with the line: "net.port: 70000 is out of range
// [1, 65535] (dissemd.toml:4)". Throws ConfigError on the first bad key.
void apply_toml(DaemonConfig& config, std::string_view text, const std::string& source);
void apply_toml_file(DaemonConfig& config, const std::string& path);

std::string to_toml(const DaemonConfig& config);

}  // namespace dissem::daemon
