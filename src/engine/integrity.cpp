#include "engine/integrity.h"

#include <algorithm>

#include "wire/message_digest.h"

namespace dissem::engine {
namespace {

// Contradictions an unverified partial message may collect beyond the
// fragments that support it before it is dropped and fetched afresh: the
// first fragment seen fixes the length and digest, so a forger's fragment
// that arrived first would otherwise block the real message for good.
constexpr std::uint32_t kConflictSlack = 4;

}  // namespace

std::uint64_t Integrity::cached_digest(const MessageId& id) {
  const auto bytes = node_.store->read_message(id);
  return bytes ? wire::message_digest(*bytes) : 0;
}

bool Integrity::verify(const MessageId& id) {
  const MessageState* st = node_.tracker.find(id);
  if (st == nullptr || !st->meta || st->meta->digest == 0) return false;
  // The reassembly copy when there is one, else the cache (which may hold
  // overlapping fragments: read_message resolves them as delivery would).
  const std::uint64_t digest = st->buffer.empty() ? cached_digest(id) : wire::message_digest(st->buffer);
  if (digest != st->meta->digest) return false;
  node_.store->set_digest(id, digest);
  return true;
}

void Integrity::distrust(const MessageId& id, IntegrityEvent why, Micros now) {
  ++node_.stats.integrity[static_cast<std::size_t>(why)];
  from_.events.alarm(Event::Kind::MessageRejected, id, now);
  node_.store->erase(id);
  from_.coder.drop(id);
  from_.windows.forget_image(id);
  node_.tracker.reopen(id);
}

void Integrity::on_conflict(const MessageId& id, FragmentOutcome outcome, Micros now) {
  ++node_.stats.integrity[static_cast<std::size_t>(outcome == FragmentOutcome::LengthConflict
                                                       ? IntegrityEvent::LengthConflict
                                                       : IntegrityEvent::DigestConflict)];
  const MessageState* st = node_.tracker.find(id);
  if (st == nullptr || st->complete) return;  // verified data is never replaced
  if (st->conflicts > st->fragments + kConflictSlack) distrust(id, IntegrityEvent::ConflictReset, now);
}

bool Integrity::refuse_own_id(const MessageMeta& meta, Micros now) {
  if (meta.id.publisher != node_.config.node_id) return false;
  // Our own messages come back from forwarders and repairers: those are
  // duplicates. Anything we never published, or that names one of ours
  // with another length or digest, is forged.
  const MessageState* st = node_.tracker.find(meta.id);
  const bool ours = meta.id.seq <= from_.own.published_up_to(meta.id.group, *node_.store);
  const bool consistent = st == nullptr || !st->meta ||
                          (st->meta->total_length == meta.total_length && st->meta->digest == meta.digest);
  if (ours && consistent) {
    ++node_.stats.duplicate_fragments;
    return true;
  }
  ++node_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::OwnId)];
  if (!ours && from_.own.skip_forged(meta.id, *node_.store)) ++node_.stats.own_seq_skipped;
  from_.events.alarm(Event::Kind::ForgedOwnData, meta.id, now);
  return true;
}

}  // namespace dissem::engine
