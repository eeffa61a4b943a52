// Authenticated groups in the node (engine/security_config.h): datagrams
// sealed on the way out and opened on the way in (network key, replay
// guard), messages of keyed groups signed at publication and their
// signatures checked before anything of them is cached, and sealed payloads
// encrypted at publication and opened at delivery.
#include "engine/datagram_auth.h"
#include "engine/message_signature.h"
#include "engine/node_impl.h"
#include "engine/payload_seal.h"
#include "wire/message_digest.h"

namespace dissem::engine {

namespace {

// Same manifest (and signature) as a message already verified: no new check.
bool same_manifest(const MessageMeta& a, const MessageMeta& b) {
  return a.signature == b.signature && a.key_epoch == b.key_epoch && a.total_length == b.total_length &&
         a.digest == b.digest && a.priority == b.priority && a.expiry_s == b.expiry_s &&
         a.history_window == b.history_window && a.tag == b.tag;
}

}  // namespace

void NodeImpl::seal_outgoing(std::vector<std::uint8_t>& datagram, Micros now) {
  if (config.security.network.empty()) return;
  const auto& [epoch, key] = config.security.sending(config.security.network, to_unix_seconds(now));
  // Strictly increasing, and at least the clock: it keeps increasing across
  // restarts, so receivers never take a new datagram for a replay.
  auth_counter = std::max(auth_counter + 1, static_cast<std::uint64_t>(std::max<Micros>(now, 0)));
  seal_datagram(datagram, key, epoch, config.node_id, auth_counter);
}

std::optional<std::span<const std::uint8_t>> NodeImpl::open_incoming(std::span<const std::uint8_t> datagram) {
  sealer = 0;
  if (config.security.network.empty()) return datagram;
  const auto opened = open_datagram(datagram, config.security.network);
  if (!opened) {
    ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::Unauthenticated)];
    return std::nullopt;
  }
  if (opened->sender != config.node_id && !replay.accept(opened->sender, opened->counter)) {
    ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::Replayed)];
    return std::nullopt;
  }
  sealer = opened->sender;
  return opened->frame;
}

bool NodeImpl::sealed_by(NodeId claimed) {
  if (config.security.network.empty() || sealer == claimed) return true;
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
  if (verify_manifest(meta, key->second)) return true;
  ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::BadSignature)];
  return false;
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
  meta.signature = sign_manifest(meta, key);
}

std::optional<std::vector<std::uint8_t>> NodeImpl::readable(const MessageId& id, std::vector<std::uint8_t> stored) {
  const GroupKeys* keys = config.security.group(id.group);
  if (keys == nullptr || keys->seal.empty()) return stored;
  auto clear = open_payload(stored, id, keys->seal);
  if (!clear) ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::Undecryptable)];
  return clear;
}

}  // namespace dissem::engine
