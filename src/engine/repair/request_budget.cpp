// The serving budget applied to one request (engine/serve_budget.h): each
// item is charged the bytes its answer could put on the air (the fragments
// this node holds that the item names; a block's or a window's deficit in
// symbols), headers included, in the order the requester listed them. What
// the requester's budget cannot cover is cut from the request before
// anything is scheduled. Asking a node for what it lacks costs nothing here.
#include <algorithm>
#include <map>

#include "engine/repair/repair_server.h"

namespace dissem::engine {

std::uint64_t RepairServer::trim_plain(const MessageId& id, const MessageState& st, wire::MessageWants& m,
                                   std::uint64_t allowed) {
  // The fragments an answer would send: those held that overlap the ranges.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  if (m.ranges().empty()) ranges.emplace_back(0, st.meta->total_length);  // the whole message
  for (int k = 0; k + 1 < m.ranges().size(); k += 2) ranges.emplace_back(m.ranges(k), m.ranges(k + 1));
  std::map<std::uint32_t, std::uint32_t> fragments;  // offset -> length, each once
  for (const auto& [b, e] : ranges)
    for (const auto& [off, len] : node_.store->fragment_offsets(id, b, std::min(e, st.meta->total_length)))
      fragments.emplace(off, len);
  std::uint64_t cost = 0;
  for (const auto& [off, len] : fragments) cost += len + kAnswerHeaderCost;
  if (cost <= allowed) return cost;
  // Keep the fragments, in offset order, that the budget covers.
  m.clear_ranges();
  std::uint64_t kept = 0;
  for (const auto& [off, len] : fragments) {
    if (kept + len + kAnswerHeaderCost > allowed) break;
    kept += len + kAnswerHeaderCost;
    const auto n = m.ranges().size();
    if (n >= 2 && m.ranges(n - 1) == off) {
      m.set_ranges(n - 1, off + len);  // adjacent: extend the last range
    } else {
      m.add_ranges(off);
      m.add_ranges(off + len);
    }
  }
  node_.stats.request_bytes_trimmed += cost - kept;
  if (m.ranges().empty()) ++node_.stats.requests_trimmed;
  return kept;
}

std::uint32_t RepairServer::trim_deficit(std::uint32_t deficit, std::uint32_t symbol_size, std::uint64_t& allowed) {
  const std::uint64_t unit = std::uint64_t{symbol_size} + kAnswerHeaderCost;
  const auto keep = static_cast<std::uint32_t>(std::min<std::uint64_t>(deficit, allowed / unit));
  allowed -= keep * unit;
  if (keep < deficit) {
    node_.stats.request_bytes_trimmed += (deficit - keep) * unit;
    if (keep == 0) ++node_.stats.requests_trimmed;
  }
  return keep;
}

void RepairServer::budget_request(wire::MissingFragmentRequest& r, Micros now) {
  const NodeId requester = r.requester();
  const bool member = from_.peers.established(requester);
  std::uint64_t allowed = budget_.available(requester, member, now);
  const std::uint64_t granted = allowed;
  for (auto& w : *r.mutable_wants()) {
    auto* windows = w.mutable_windows();
    for (int i = 0; i < windows->size();) {
      auto& need = *windows->Mutable(i);
      // A symbol is as large as the largest message it combines, not a full
      // payload; a window holding nothing the requester lacks costs nothing.
      const std::uint32_t symbol = from_.windows.symbol_size(StreamId{w.group(), w.publisher()}, need, now);
      if (symbol == 0) {
        ++i;
        continue;
      }
      need.set_deficit(trim_deficit(need.deficit(), symbol, allowed));
      if (need.deficit() == 0) {
        windows->DeleteSubrange(i, 1);
      } else {
        ++i;
      }
    }
    auto* messages = w.mutable_messages();
    for (int i = 0; i < messages->size();) {
      auto& m = *messages->Mutable(i);
      const MessageId id{w.group(), w.publisher(), m.seq()};
      const MessageState* st = node_.tracker.find(id);
      bool empty = false;
      if (st == nullptr || !st->meta) {
        // Nothing of it here to send: free.
      } else if (!m.blocks().empty()) {
        auto* blocks = m.mutable_blocks();
        for (int b = 0; b < blocks->size();) {
          auto& need = *blocks->Mutable(b);
          need.set_deficit(trim_deficit(need.deficit(), std::max<std::uint32_t>(need.symbol_size(), 1), allowed));
          if (need.deficit() == 0) {
            blocks->DeleteSubrange(b, 1);
          } else {
            ++b;
          }
        }
        empty = blocks->empty();  // (an item with no blocks and no ranges would ask for all of it)
      } else {
        const std::uint64_t kept = trim_plain(id, *st, m, allowed);
        allowed -= kept;
        empty = kept == 0;
      }
      if (empty) {
        messages->DeleteSubrange(i, 1);
      } else {
        ++i;
      }
    }
  }
  budget_.charge(requester, member, granted - allowed, now);
}

}  // namespace dissem::engine
