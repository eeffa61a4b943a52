#include "engine/fragmenter.h"

#include <algorithm>

namespace dissem::engine {

std::vector<std::pair<std::uint32_t, std::uint32_t>> fragment_layout(std::uint32_t total,
                                                                     std::uint32_t payload_size) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  const std::uint32_t step = std::max<std::uint32_t>(payload_size, 1);
  out.reserve(total / step + 1);
  for (std::uint32_t off = 0; off < total; off += std::min(step, total - off)) {
    out.emplace_back(off, std::min(step, total - off));
  }
  return out;
}

void fill_fragment(wire::DataFragment& out, const MessageMeta& meta, std::uint32_t offset,
                   std::span<const std::uint8_t> payload, bool repair, std::uint32_t hops, NodeId forwarder) {
  out.Clear();
  fill_message_fields(out, meta, repair);
  out.set_offset(offset);
  out.set_hops(hops);
  if (forwarder != 0) out.set_forwarder(forwarder);
  out.set_payload(payload.data(), payload.size());
}

}  // namespace dissem::engine
