// Integrity of received data without keys: every fragment and coded symbol
// carries its message's digest (wire/message_digest.h). The first one held
// fixes the message's length and digest; fragments and symbols that
// contradict them are dropped and counted. A message whose bytes are all
// held is checked against its digest before it counts as complete, is
// delivered or is served as complete: on a mismatch its data is dropped from
// the cache and it is fetched again. A node never takes from the air data
// under its own id.
//
// What this cannot stop without signatures: a forger who invents a whole
// message (bytes and digest) under another node's id and gets it to a
// receiver before the real one (docs/threat-model.md).
#include <algorithm>

#include "engine/node_impl.h"
#include "wire/message_digest.h"

namespace dissem::engine {
namespace {

// Contradictions an unverified partial message may collect beyond the
// fragments that support it before it is dropped and fetched afresh: the
// first fragment seen fixes the length and digest, so a forger's fragment
// that arrived first would otherwise block the real message for good.
constexpr std::uint32_t kConflictSlack = 4;

}  // namespace

std::uint64_t NodeImpl::cached_digest(const MessageId& id) {
  const auto bytes = store->read_message(id);
  return bytes ? wire::message_digest(*bytes) : 0;
}

bool NodeImpl::verify_message(const MessageId& id) {
  const MessageState* st = tracker.find(id);
  if (st == nullptr || !st->meta || st->meta->digest == 0) return false;
  // The reassembly copy when there is one, else the cache (which may hold
  // overlapping fragments: read_message resolves them as delivery would).
  const std::uint64_t digest = st->buffer.empty() ? cached_digest(id) : wire::message_digest(st->buffer);
  if (digest != st->meta->digest) return false;
  store->set_digest(id, digest);
  return true;
}

void NodeImpl::distrust_message(const MessageId& id, IntegrityEvent why, Micros now) {
  ++stats.integrity[static_cast<std::size_t>(why)];
  events.alarm(Event::Kind::MessageRejected, id, now);
  store->erase(id);
  coded.forget(id);
  coder_cache.window_images.erase(id);
  std::erase_if(coder_cache.block_rows, [&](const CoderCache::BlockRows& r) { return r.message == id; });
  tracker.reopen(id);
}

void NodeImpl::on_conflict(const MessageId& id, FragmentOutcome outcome, Micros now) {
  ++stats.integrity[static_cast<std::size_t>(outcome == FragmentOutcome::LengthConflict
                                                 ? IntegrityEvent::LengthConflict
                                                 : IntegrityEvent::DigestConflict)];
  const MessageState* st = tracker.find(id);
  if (st == nullptr || st->complete) return;  // verified data is never replaced
  if (st->conflicts > st->fragments + kConflictSlack) distrust_message(id, IntegrityEvent::ConflictReset, now);
}

bool NodeImpl::refuse_own_id(const MessageMeta& meta, Micros now) {
  if (meta.id.publisher != config.node_id) return false;
  // Our own messages come back from forwarders and repairers: those are
  // duplicates. Anything we never published, or that names one of ours
  // with another length or digest, is forged.
  const MessageState* st = tracker.find(meta.id);
  const bool ours = meta.id.seq <= published_up_to(meta.id.group);
  const bool consistent = st == nullptr || !st->meta ||
                          (st->meta->total_length == meta.total_length && st->meta->digest == meta.digest);
  if (ours && consistent) {
    ++stats.duplicate_fragments;
    return true;
  }
  ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::OwnId)];
  if (!ours) skip_forged_seq(meta.id);
  events.alarm(Event::Kind::ForgedOwnData, meta.id, now);
  return true;
}


void NodeImpl::skip_forged_seq(const MessageId& id) {
  // Only streams we publish, and not far ahead: a forgery in an invented
  // group must not grow our table, nor one far ahead spend our numbers.
  constexpr std::uint64_t kMaxSkip = 1024;
  auto it = own.published_seq.find(id.group);
  if (it == own.published_seq.end() || id.seq <= it->second || id.seq - it->second > kMaxSkip) return;
  it->second = id.seq;
  store->set_state(seq_state_key(id.group), std::to_string(id.seq));
  ++stats.own_seq_skipped;
}

}  // namespace dissem::engine
