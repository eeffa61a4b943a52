#include "wire/message_digest.h"

#include <stdexcept>

namespace dissem::wire {
namespace {

// BLAKE2b's shortest output in libsodium; the first 8 bytes are used.
constexpr std::size_t kHashBytes = crypto_generichash_BYTES_MIN;

// sodium_init is idempotent and thread-safe; it picks the fastest
// implementation for this CPU.
void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not be initialised");
}

}  // namespace

MessageHasher::MessageHasher() {
  ensure_sodium();
  crypto_generichash_init(&state_, nullptr, 0, kHashBytes);
}

void MessageHasher::update(std::span<const std::uint8_t> bytes) {
  crypto_generichash_update(&state_, bytes.data(), bytes.size());
}

std::uint64_t MessageHasher::finish() {
  unsigned char hash[kHashBytes];
  crypto_generichash_final(&state_, hash, sizeof hash);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | hash[i];
  return v == 0 ? 1 : v;
}

std::uint64_t message_digest(std::span<const std::uint8_t> payload) {
  MessageHasher h;
  h.update(payload);
  return h.finish();
}

}  // namespace dissem::wire
