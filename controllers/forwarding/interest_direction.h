// The interest rules shared by the interest-driven forwarders
// (subscription-aware, subscriber-tree): whether a rebroadcast by this node
// brings some subscriber of the fragment's group nearer than the copy's
// transmitter did, and whether anyone beyond this node wants a group.
// Both read only neighbours' advertised interest (NodeView::interest), so
// they cost O(entries of the group) per call.
#pragma once

#include <cstdint>
#include <string>

#include "controllers/forwarding/forwarding_controller.h"

namespace dissem::controllers {

// Whether a neighbour other than the transmitter wants the group through a
// path not leading back here, within the rebroadcasts the hop limit leaves,
// and (for first-pass data) is a subscriber or nearer to one than the
// transmitter. A transmitter that advertises nothing about a subscriber
// (or a repair, which names none) counts as infinitely far from it.
bool brings_subscriber_closer(const ReceivedFragment& f, const NodeView& node, std::uint32_t hop_limit);

// Whether some neighbour wants `group` by interest that does not come back
// through this node (someone is beyond us).
bool someone_beyond(const std::string& group, const NodeView& node);

}  // namespace dissem::controllers
