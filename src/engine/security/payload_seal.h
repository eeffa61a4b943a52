// Confidentiality for keyed groups that have a seal key: the publisher
// encrypts each message's payload with XChaCha20-Poly1305 (libsodium's IETF
// AEAD) under the group's key before fragmenting it, and a subscriber that
// holds the key opens it at delivery. Relays and caches without the seal key
// still verify (the digest and the signature cover the sealed bytes) and
// serve it; they cannot read it.
//
// Sealed payload: u32 epoch (little-endian), 24-byte nonce, ciphertext with
// its 16-byte tag. The associated data is the message id (group, publisher,
// seq), so sealed bytes cannot be passed off as another message. Nonces are
// 24 random bytes: XChaCha's nonce is long enough to draw at random.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "engine/security/security_config.h"
#include "core/types.h"

namespace dissem::engine {

constexpr std::size_t kSealNonceBytes = 24;
constexpr std::size_t kSealOverhead = 4 + kSealNonceBytes + 16;

std::vector<std::uint8_t> seal_payload(std::span<const std::uint8_t> payload, const MessageId& id,
                                       const SymmetricKey& key, std::uint32_t epoch,
                                       const std::array<std::uint8_t, kSealNonceBytes>& nonce);

// The clear payload, if `sealed` opens under the key of its epoch in `keys`.
std::optional<std::vector<std::uint8_t>> open_payload(std::span<const std::uint8_t> sealed, const MessageId& id,
                                                      const std::map<std::uint32_t, SymmetricKey>& keys);

}  // namespace dissem::engine
