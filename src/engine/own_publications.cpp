#include "engine/own_publications.h"

#include <charconv>

namespace dissem::engine {

std::string seq_state_key(const std::string& group) { return "pubseq/" + group; }

std::uint64_t saved_seq(cache::Store& store, const std::string& group) {
  std::uint64_t v = 0;
  if (auto saved = store.get_state(seq_state_key(group))) std::from_chars(saved->data(), saved->data() + saved->size(), v);
  return v;
}

std::uint64_t OwnPublications::published_up_to(const std::string& group, cache::Store& store) const {
  if (auto it = published_seq.find(group); it != published_seq.end()) return it->second;
  return saved_seq(store, group);
}

bool OwnPublications::skip_forged(const MessageId& id, cache::Store& store) {
  // A forgery in an invented group must not grow our table, nor one far
  // ahead spend our numbers.
  constexpr std::uint64_t kMaxSkip = 1024;
  auto it = published_seq.find(id.group);
  if (it == published_seq.end() || id.seq <= it->second || id.seq - it->second > kMaxSkip) return false;
  it->second = id.seq;
  store.set_state(seq_state_key(id.group), std::to_string(id.seq));
  return true;
}

void OwnPublications::release(const PublicationCursor& cursor) {
  if (cursor.payload) payload_bytes -= cursor.payload->size();
  queued_bytes -= cursor.length;
  auto it = queued_group_bytes.find(cursor.id.group);
  if (it != queued_group_bytes.end() && (it->second -= cursor.length) == 0) queued_group_bytes.erase(it);
}

}  // namespace dissem::engine
