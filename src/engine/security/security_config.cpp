#include "engine/security/security_config.h"

#include <algorithm>

namespace dissem::engine {

namespace {

template <class Key>
bool all_revoked(const std::map<std::uint32_t, Key>& keys, const std::set<std::uint32_t>& revoked) {
  return !keys.empty() &&
         std::all_of(keys.begin(), keys.end(), [&](const auto& k) { return revoked.contains(k.first); });
}

}  // namespace

std::string security_problem(const SecurityConfig& config) {
  if (all_revoked(config.network, config.revoked_epochs))
    return "every epoch of the network key is revoked: nothing is left to send with";
  for (const auto& [name, keys] : config.groups) {
    if (all_revoked(keys.verify, config.revoked_epochs))
      return "group '" + name + "': every epoch of its verify key is revoked: nothing of it could be taken";
    if (all_revoked(keys.sign, config.revoked_epochs))
      return "group '" + name + "': every epoch of this node's signing key is revoked: it could publish nothing";
    if (all_revoked(keys.seal, config.revoked_epochs))
      return "group '" + name + "': every epoch of its seal key is revoked: nothing could be sealed";
  }
  return {};
}

std::string security_change_problem(const SecurityConfig& running, const SecurityConfig& next) {
  if (running.network.empty() != next.network.empty())
    return running.network.empty() ? "a network key where the node started without one needs a restart"
                                   : "removing the network key needs a restart";
  if (running.empty() != next.empty())
    return "keys where the node started without any need a restart (datagrams were sized without room for them)";
  return security_problem(next);
}

}  // namespace dissem::engine
