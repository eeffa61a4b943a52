#include "engine/repair/request_server.h"

#include <algorithm>

namespace dissem::engine {

ServeTask& RequestServer::task(const MessageId& id, Micros now, Micros due) {
  auto [it, inserted] = tasks_.try_emplace(id);
  ServeTask& t = it->second;
  if (inserted) {
    t.message = id;
    t.due = due;
    by_due_.emplace(due, id);
  }
  // A merged request keeps the earlier deadline: it was drawn first. A later
  // request proves the requester missed anything sent before it.
  t.requested_at = std::max(t.requested_at, now);
  return t;
}

void RequestServer::on_request(const MessageId& id, bool whole,
                               const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ranges, Micros now,
                               Micros due) {
  ServeTask& t = task(id, now, due);
  t.whole = t.whole || whole;
  for (const auto& [b, e] : ranges) t.ranges.add(b, e);
}

void RequestServer::on_block_request(const MessageId& id, std::uint32_t block, const BlockAsk& ask, Micros now,
                                     Micros due) {
  ServeTask& t = task(id, now, due);
  auto [it, fresh] = t.blocks.try_emplace(block, ask);
  if (fresh) return;
  BlockAsk& b = it->second;
  b.deficit = std::max(b.deficit, ask.deficit);
  // Sources only some requesters hold are missing at the others.
  b.held.resize(std::min(b.held.size(), ask.held.size()));
  for (std::size_t i = 0; i < b.held.size(); ++i) b.held[i] &= ask.held[i];
}

std::vector<ServeTask> RequestServer::take_due(Micros now) {
  std::vector<ServeTask> out;
  while (!by_due_.empty() && by_due_.begin()->first <= now) {
    auto node = tasks_.extract(by_due_.begin()->second);
    by_due_.erase(by_due_.begin());
    out.push_back(std::move(node.mapped()));
  }
  return out;
}

std::optional<Micros> RequestServer::next_due() const {
  if (by_due_.empty()) return std::nullopt;
  return by_due_.begin()->first;
}

}  // namespace dissem::engine
