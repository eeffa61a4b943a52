// This node's own streams (node_publish.cpp): the newest sequence number
// published and the newest whose first pass is complete per group (what our
// beacons advertise, so receivers never ask for what we have not sent yet),
// and flow control: bytes of publications queued, overall and per group,
// against engine.send_budget_ms / group_send_budget_ms.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "engine/pacer_debt.h"

namespace dissem::engine {

struct OwnPublications {
  std::unordered_map<std::string, std::uint64_t> published_seq;
  std::unordered_map<std::string, std::uint64_t> sent_seq;
  std::uint64_t payload_bytes = 0;  // payload bytes held by publication cursors
  std::uint64_t queued_bytes = 0;
  std::unordered_map<std::string, std::uint64_t> queued_group_bytes;
  PacerDebt paced;  // first-pass bytes taken out of the queue whose air time has not passed
};

}  // namespace dissem::engine
