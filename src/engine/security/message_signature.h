// Source authentication for keyed groups: the publisher signs, once per
// message, its manifest with the group's Ed25519 key (libsodium
// crypto_sign_detached), and every node that holds the group's verify key
// checks it before it caches, serves or delivers any of the message.
//
// The manifest is everything a fragment says about its message: the id
// (group, publisher, seq), length, priority, expiry, history window, tag,
// the digest of the whole payload, the key epoch, the chain link and what
// the message supersedes, in a fixed byte layout
// (below). The digest binds the payload: a fragment whose bytes are not the
// publisher's makes the reassembled message fail its digest, and a
// fragment that states any other manifest field fails the signature.
//
// Layout (integers little-endian): "dissem-manifest-3", u32 group length,
// group bytes, u32 publisher, u64 seq, u32 total_length, u32 priority,
// u64 expiry_ms, u32 history_window, u32 tag length, tag bytes, u64 digest,
// u32 key_epoch, u32 chain length (16, or 0 without a link to the
// predecessor: engine/security/manifest_chain.h), chain bytes, u32 flags (1 replace,
// 2 cancel), u32 count of superseded range bounds, that many u64.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/security/security_config.h"
#include "core/types.h"

namespace dissem::engine {

std::vector<std::uint8_t> manifest_bytes(const MessageMeta& meta);

// The 64-byte signature of `meta`'s manifest (meta.key_epoch included).
std::string sign_manifest(const MessageMeta& meta, const SigningKey& key);

// True if meta.signature is `key`'s signature of meta's manifest.
bool verify_manifest(const MessageMeta& meta, const VerifyKey& key);

}  // namespace dissem::engine
