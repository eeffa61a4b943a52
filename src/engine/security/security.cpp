#include "engine/security/security.h"

#include <algorithm>
#include <array>

#include "engine/security/message_signature.h"
#include "engine/node_types.h"
#include "engine/security/payload_seal.h"
#include "wire/message_digest.h"

namespace dissem::engine {

namespace {

// Same manifest (and signature) as a message already verified: no new check.
bool same_manifest(const MessageMeta& a, const MessageMeta& b) {
  return a.signature == b.signature && a.key_epoch == b.key_epoch && a.chain == b.chain &&
         a.total_length == b.total_length &&
         a.digest == b.digest && a.priority == b.priority && a.expiry_ms == b.expiry_ms &&
         a.history_window == b.history_window && a.tag == b.tag && a.replace == b.replace && a.cancel == b.cancel &&
         a.supersedes == b.supersedes;
}

}  // namespace

Security::Security(NodeContext& ctx)
    : ctx_(ctx), replay_(ctx.config.max_peers, ctx.config.security.replay_window_us) {}

bool Security::admitted(const MessageMeta& meta) const {
  const MessageState* st = ctx_.tracker.find(meta.id);
  return st != nullptr && st->meta && same_manifest(*st->meta, meta);
}

void Security::seal_outgoing(std::vector<std::uint8_t>& datagram, Micros now) {
  if (ctx_.config.security.network.empty()) return;
  // The epoch by Unix time (send_from is absolute); the counter by `now`,
  // which never steps back.
  const auto& [epoch, key] =
      ctx_.config.security.sending(ctx_.config.security.network, to_unix_seconds(ctx_.wall(now)));
  // Strictly increasing, and at least the clock: it keeps increasing across
  // restarts, so receivers never take a new datagram for a replay.
  auth_counter_ = std::max(auth_counter_ + 1, static_cast<std::uint64_t>(std::max<Micros>(now, 0)));
  seal_datagram(datagram, key, epoch, ctx_.config.node_id, auth_counter_);
}

std::optional<std::span<const std::uint8_t>> Security::open_incoming(std::span<const std::uint8_t> datagram) {
  sealer_ = 0;
  if (ctx_.config.security.network.empty()) return datagram;
  const auto opened = open_datagram(datagram, ctx_.config.security.network);
  if (!opened) {
    ++ctx_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::Unauthenticated)];
    return std::nullopt;
  }
  if (ctx_.config.security.revoked(opened->epoch) || ctx_.config.security.revoked_publisher(opened->sender)) {
    ++ctx_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::Revoked)];
    return std::nullopt;
  }
  if (opened->sender != ctx_.config.node_id && !replay_.accept(opened->sender, opened->counter)) {
    ++ctx_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::Replayed)];
    return std::nullopt;
  }
  sealer_ = opened->sender;
  return opened->frame;
}

bool Security::sealed_by(NodeId claimed) {
  if (ctx_.config.security.network.empty() || sealer_ == claimed) return true;
  ++ctx_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::SenderMismatch)];
  return false;
}

bool Security::revoked(const MessageMeta& meta, const GroupKeys* keys) const {
  const SecurityConfig& config = ctx_.config.security;
  return config.revoked_publisher(meta.id.publisher) || (keys != nullptr && config.revoked(meta.key_epoch));
}

bool Security::authentic(const MessageMeta& meta) {
  const GroupKeys* keys = ctx_.config.security.group(meta.id.group);
  if (revoked(meta, keys)) {
    // What was admitted before the revocation stays; this copy of it is a duplicate.
    if (admitted(meta) || ctx_.tracker.settled(meta.id)) return true;
    ++ctx_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::Revoked)];
    return false;
  }
  if (keys == nullptr) return true;  // an open group
  const auto key = keys->verify.find(meta.key_epoch);
  if (meta.signature.empty() || key == keys->verify.end()) {
    ++ctx_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::Unsigned)];
    return false;
  }
  if (admitted(meta)) return true;  // checked when the message was first admitted
  if (ctx_.tracker.settled(meta.id)) return true;  // held already: this copy is a duplicate, dropped as such
  if (check_signature(meta, key->second, false)) return true;
  ++ctx_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::BadSignature)];
  return false;
}

bool Security::check_signature(const MessageMeta& meta, const VerifyKey& key, bool ahead) {
  const ChainLink link = manifest_link(meta);
  if (chain_.vouched(meta.id, link)) {
    // Counted when the message is admitted, unless its own signature was
    // checked ahead of the batch (and counted then).
    const bool checked_ahead = std::find(batch_checked_.begin(), batch_checked_.end(), meta.id) != batch_checked_.end();
    if (!ahead && !checked_ahead) ++ctx_.stats.signatures_vouched;
  } else {
    const auto known_bad = std::find(batch_forged_.begin(), batch_forged_.end(), std::pair{meta.id, link});
    if (known_bad != batch_forged_.end()) return false;
    ++ctx_.stats.signatures_checked;
    if (!verify_manifest(meta, key)) {
      if (batch_forged_.size() < kMaxBatchForged) batch_forged_.emplace_back(meta.id, link);
      return false;
    }
    if (ahead) batch_checked_.push_back(meta.id);
  }
  chain_.learn(meta, link);
  return true;
}

void Security::authenticate_ahead(std::vector<MessageMeta> metas) {
  struct Candidate {
    MessageMeta meta;
    const VerifyKey* key;
  };
  std::vector<Candidate> candidates;
  for (MessageMeta& meta : metas) {
    // Only what authentic() would check: data of a keyed group, signed, not
    // ours, not held, under a key we have, not admitted already.
    const GroupKeys* keys = ctx_.config.security.group(meta.id.group);
    if (keys == nullptr || meta.signature.empty() || meta.id.publisher == ctx_.config.node_id) continue;
    if (revoked(meta, keys)) continue;
    if (ctx_.tracker.settled(meta.id)) continue;
    const auto key = keys->verify.find(meta.key_epoch);
    if (key == keys->verify.end()) continue;
    if (admitted(meta)) continue;
    candidates.push_back({std::move(meta), &key->second});
  }
  if (candidates.empty()) return;
  // Newest first within each stream: one verified signature vouches for the
  // predecessors the burst holds.
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.meta.id.publisher != b.meta.id.publisher) return a.meta.id.publisher < b.meta.id.publisher;
    if (a.meta.id.group != b.meta.id.group) return a.meta.id.group < b.meta.id.group;
    return a.meta.id.seq > b.meta.id.seq;
  });
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const MessageMeta& meta = candidates[i].meta;
    if (i > 0 && candidates[i - 1].meta.id == meta.id && same_manifest(candidates[i - 1].meta, meta)) continue;
    check_signature(meta, *candidates[i].key, true);
  }
}

void Security::end_batch() {
  batch_forged_.clear();
  batch_checked_.clear();
}

void Security::sign_and_seal(MessageMeta& meta, std::vector<std::uint8_t>& payload, Micros now) {
  const GroupKeys* keys = ctx_.config.security.group(meta.id.group);
  if (keys == nullptr) return;
  if (keys->sign.empty())
    throw PublishError("group '" + meta.id.group + "' is keyed and this node holds no signing key for it");
  if (!keys->seal.empty()) {
    const auto& [epoch, key] = ctx_.config.security.sending(keys->seal, to_unix_seconds(ctx_.wall(now)));
    // Unique without trusting the generator: (publisher, seq) never repeats
    // while the cache lives, the clock differs after a restart that lost it,
    // and the random part covers the rest.
    std::array<std::uint8_t, kSealNonceBytes> nonce{};
    const std::uint64_t parts[3] = {meta.id.seq, static_cast<std::uint64_t>(now) ^ (std::uint64_t{meta.id.publisher} << 32),
                                    ctx_.rng.next()};
    for (std::size_t i = 0; i < nonce.size(); ++i) nonce[i] = static_cast<std::uint8_t>(parts[i / 8] >> (8 * (i % 8)));
    payload = seal_payload(payload, meta.id, key, epoch, nonce);
  }
  meta.total_length = static_cast<std::uint32_t>(payload.size());
  meta.digest = wire::message_digest(payload);
  const auto& [epoch, key] = ctx_.config.security.sending(keys->sign, to_unix_seconds(ctx_.wall(now)));
  meta.key_epoch = epoch;
  // The link to our previous message of the group, if this run of the
  // node signed it (engine/security/manifest_chain.h).
  const auto previous = publish_links_.find(meta.id.group);
  const bool linked = previous != publish_links_.end() && previous->second.first + 1 == meta.id.seq;
  meta.chain = linked ? link_bytes(previous->second.second) : std::string();
  meta.signature = sign_manifest(meta, key);
  publish_links_[meta.id.group] = {meta.id.seq, manifest_link(meta)};
}

std::optional<std::vector<std::uint8_t>> Security::readable(const MessageId& id, std::vector<std::uint8_t> stored) {
  const GroupKeys* keys = ctx_.config.security.group(id.group);
  if (keys == nullptr || keys->seal.empty()) return stored;
  auto clear = open_payload(stored, id, keys->seal);
  if (!clear) ++ctx_.stats.integrity[static_cast<std::size_t>(IntegrityEvent::Undecryptable)];
  return clear;
}

}  // namespace dissem::engine
