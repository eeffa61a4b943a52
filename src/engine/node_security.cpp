// Authenticated groups in the node (engine/security_config.h): datagrams
// sealed on the way out and opened on the way in (network key, replay
// guard), messages of keyed groups signed at publication and their
// signatures checked before anything of them is cached, and sealed payloads
// encrypted at publication and opened at delivery.
#include <algorithm>

#include "engine/datagram_auth.h"
#include "engine/fragmenter.h"
#include "engine/manifest_chain.h"
#include "engine/message_signature.h"
#include "engine/node_impl.h"
#include "engine/payload_seal.h"
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

void NodeImpl::seal_outgoing(std::vector<std::uint8_t>& datagram, Micros now) {
  if (config.security.network.empty()) return;
  const auto& [epoch, key] = config.security.sending(config.security.network, to_unix_seconds(now));
  // Strictly increasing, and at least the clock: it keeps increasing across
  // restarts, so receivers never take a new datagram for a replay.
  security.auth_counter = std::max(security.auth_counter + 1, static_cast<std::uint64_t>(std::max<Micros>(now, 0)));
  seal_datagram(datagram, key, epoch, config.node_id, security.auth_counter);
}

std::optional<std::span<const std::uint8_t>> NodeImpl::open_incoming(std::span<const std::uint8_t> datagram) {
  security.sealer = 0;
  if (config.security.network.empty()) return datagram;
  const auto opened = open_datagram(datagram, config.security.network);
  if (!opened) {
    ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::Unauthenticated)];
    return std::nullopt;
  }
  if (opened->sender != config.node_id && !security.replay.accept(opened->sender, opened->counter)) {
    ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::Replayed)];
    return std::nullopt;
  }
  security.sealer = opened->sender;
  return opened->frame;
}

bool NodeImpl::sealed_by(NodeId claimed) {
  if (config.security.network.empty() || security.sealer == claimed) return true;
  ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::SenderMismatch)];
  return false;
}

bool NodeImpl::authentic(const MessageMeta& meta) {
  const GroupKeys* keys = config.security.group(meta.id.group);
  if (keys == nullptr) return true;  // an open group
  const auto key = keys->verify.find(meta.key_epoch);
  if (meta.signature.empty() || key == keys->verify.end()) {
    ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::Unsigned)];
    return false;
  }
  if (const MessageState* st = tracker.find(meta.id); st != nullptr && st->meta && same_manifest(*st->meta, meta))
    return true;  // checked when the message was first admitted
  if (tracker.settled(meta.id)) return true;  // held already: this copy is a duplicate, dropped as such
  if (check_signature(meta, key->second, false)) return true;
  ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::BadSignature)];
  return false;
}

bool NodeImpl::check_signature(const MessageMeta& meta, const VerifyKey& key, bool ahead) {
  const ChainLink link = manifest_link(meta);
  if (security.chain.vouched(meta.id, link)) {
    // Counted when the message is admitted, unless its own signature was
    // checked ahead of the batch (and counted then).
    const bool checked_ahead = std::find(security.batch_checked.begin(), security.batch_checked.end(), meta.id) != security.batch_checked.end();
    if (!ahead && !checked_ahead) ++stats.signatures_vouched;
  } else {
    const auto known_bad = std::find(security.batch_forged.begin(), security.batch_forged.end(), std::pair{meta.id, link});
    if (known_bad != security.batch_forged.end()) return false;
    ++stats.signatures_checked;
    if (!verify_manifest(meta, key)) {
      if (security.batch_forged.size() < SecurityState::kMaxBatchForged) security.batch_forged.emplace_back(meta.id, link);
      return false;
    }
    if (ahead) security.batch_checked.push_back(meta.id);
  }
  security.chain.learn(meta, link);
  return true;
}

void NodeImpl::authenticate_ahead(std::span<BatchItem> items, Micros now) {
  struct Candidate {
    MessageMeta meta;
    const VerifyKey* key;
  };
  std::vector<Candidate> candidates;
  for (const BatchItem& item : items) {
    if (!item.usable) continue;
    MessageMeta meta;
    if (item.decoded.kind == wire::Kind::Data) {
      meta = meta_of(item.decoded.data, now);
    } else if (item.decoded.kind == wire::Kind::Coded && config.coding) {
      meta = meta_of(item.decoded.coded, now);
    } else {
      continue;
    }
    // Only what the handlers would check (handle_data, on_coded_symbol):
    // data we take, of a keyed group, not ours, not expired, not held.
    const GroupKeys* keys = config.security.group(meta.id.group);
    if (keys == nullptr || meta.signature.empty() || meta.id.publisher == config.node_id) continue;
    if (!subscriptions.any(meta.id.group) && !config.cache_unsubscribed) continue;
    if (meta.expired_at(now) || tracker.settled(meta.id)) continue;
    const auto key = keys->verify.find(meta.key_epoch);
    if (key == keys->verify.end()) continue;
    if (const MessageState* st = tracker.find(meta.id); st != nullptr && st->meta && same_manifest(*st->meta, meta))
      continue;
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

void NodeImpl::sign_and_seal(MessageMeta& meta, std::vector<std::uint8_t>& payload, Micros now) {
  const GroupKeys* keys = config.security.group(meta.id.group);
  if (keys == nullptr) return;
  if (keys->sign.empty())
    throw PublishError("group '" + meta.id.group + "' is keyed and this node holds no signing key for it");
  if (!keys->seal.empty()) {
    const auto& [epoch, key] = config.security.sending(keys->seal, to_unix_seconds(now));
    // Unique without trusting the generator: (publisher, seq) never repeats
    // while the cache lives, the clock differs after a restart that lost it,
    // and the random part covers the rest.
    std::array<std::uint8_t, kSealNonceBytes> nonce{};
    const std::uint64_t parts[3] = {meta.id.seq, static_cast<std::uint64_t>(now) ^ (std::uint64_t{meta.id.publisher} << 32),
                                    rng.next()};
    for (std::size_t i = 0; i < nonce.size(); ++i) nonce[i] = static_cast<std::uint8_t>(parts[i / 8] >> (8 * (i % 8)));
    payload = seal_payload(payload, meta.id, key, epoch, nonce);
  }
  meta.total_length = static_cast<std::uint32_t>(payload.size());
  meta.digest = wire::message_digest(payload);
  const auto& [epoch, key] = config.security.sending(keys->sign, to_unix_seconds(now));
  meta.key_epoch = epoch;
  // The link to our previous message of the group, if this run of the
  // node signed it (engine/manifest_chain.h).
  const auto previous = security.publish_links.find(meta.id.group);
  const bool linked = previous != security.publish_links.end() && previous->second.first + 1 == meta.id.seq;
  meta.chain = linked ? link_bytes(previous->second.second) : std::string();
  meta.signature = sign_manifest(meta, key);
  security.publish_links[meta.id.group] = {meta.id.seq, manifest_link(meta)};
}

std::optional<std::vector<std::uint8_t>> NodeImpl::readable(const MessageId& id, std::vector<std::uint8_t> stored) {
  const GroupKeys* keys = config.security.group(id.group);
  if (keys == nullptr || keys->seal.empty()) return stored;
  auto clear = open_payload(stored, id, keys->seal);
  if (!clear) ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::Undecryptable)];
  return clear;
}

}  // namespace dissem::engine
