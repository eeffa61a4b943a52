// libFuzzer target for the daemon's configuration: any TOML document is
// either applied, or refused with a ConfigError naming the key; an applied
// configuration prints back to TOML that parses to the same text again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "daemon/config_toml.h"
#include "daemon/daemon_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dissem::daemon;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  DaemonConfig config;
  try {
    apply_toml(config, text, "fuzz.toml");
  } catch (const ConfigError&) {
    return 0;  // refused with a message: what a bad file must get
  }
  const std::string printed = to_toml(config);
  DaemonConfig again;
  apply_toml(again, printed, "printed.toml");  // must not throw: printing round-trips
  if (to_toml(again) != printed) std::abort();
  return 0;
}
