// libFuzzer target: what dissem-norm-gateway takes from the network and its
// configuration. The first byte picks the input: NORM object info from any
// NORM sender (decode_info, and the whole bridging policy fed that object),
// a dissem tag (parse_tag, and the policy fed a delivery with it), or the
// gateway's TOML configuration. Nothing may crash, leak or hang; a bad
// configuration may only throw ConfigError.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/norm_gateway/bridge_origin.h"
#include "tools/norm_gateway/bridge_policy.h"
#include "tools/norm_gateway/gateway_config.h"

using namespace dissem;
using namespace dissem::norm_gateway;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0] % 3;
  std::vector<std::uint8_t> rest(data + 1, data + size);
  BridgeSettings settings;
  settings.holdoff = 100 * kMillis;
  settings.memory = 16;
  if (mode == 0) {
    (void)decode_info(rest);
    BridgePolicy p(settings, 1);
    p.norm_info(0, rest);
    p.norm_object(1, 7, rest, rest);
    (void)p.take_due_dissem(kSeconds);
  } else if (mode == 1) {
    const std::string tag(rest.begin(), rest.end());
    (void)parse_tag(tag);
    BridgePolicy p(settings, 1);
    MessageMeta meta;
    meta.id = MessageId{"g", 3, 1};
    meta.tag = tag;
    p.norm_object(0, 7, {}, rest);
    (void)p.dissem_delivery(1, meta, rest);
    p.dissem_copy_seen(2, 4, tag);
    (void)p.take_due_norm(kSeconds);
    (void)p.take_due_dissem(kSeconds);
  } else {
    GatewayConfig config;
    try {
      apply_toml(config, std::string(rest.begin(), rest.end()), "fuzz.toml");
      validate(config);
      (void)to_toml(config);
    } catch (const ConfigError&) {
    }
  }
  return 0;
}
