// A message's verification data: the first 8 bytes of the BLAKE2b digest of
// its whole payload (libsodium's crypto_generichash, unkeyed), read
// little-endian, with 0 (which the wire reserves for "missing") replaced by
// 1. The publisher computes it once per message; every fragment and coded
// symbol carries it (wire.proto), and every receiver checks a reassembled or
// decoded message against it before it counts the message complete.
//
// 64 bits: slipping other bytes into someone else's message under its
// digest means finding a second preimage, about 2^64 BLAKE2b evaluations,
// during the transfer. It does not stop a forger from inventing a whole
// message under another node's id; only signatures can
// (docs/threat-model.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <sodium.h>

namespace dissem::wire {

// Incremental: feed the payload in order, in pieces of any size.
class MessageHasher {
 public:
  MessageHasher();
  void update(std::span<const std::uint8_t> bytes);
  // The digest; the hasher is spent afterwards.
  std::uint64_t finish();

 private:
  crypto_generichash_state state_{};
};

std::uint64_t message_digest(std::span<const std::uint8_t> payload);

}  // namespace dissem::wire
