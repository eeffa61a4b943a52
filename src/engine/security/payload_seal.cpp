#include "engine/security/payload_seal.h"

#include <sodium.h>

namespace dissem::engine {

namespace {

std::vector<std::uint8_t> associated_data(const MessageId& id) {
  std::vector<std::uint8_t> ad(id.group.begin(), id.group.end());
  for (int i = 0; i < 4; ++i) ad.push_back(static_cast<std::uint8_t>(id.publisher >> (8 * i)));
  for (int i = 0; i < 8; ++i) ad.push_back(static_cast<std::uint8_t>(id.seq >> (8 * i)));
  return ad;
}

}  // namespace

std::vector<std::uint8_t> seal_payload(std::span<const std::uint8_t> payload, const MessageId& id,
                                       const SymmetricKey& key, std::uint32_t epoch,
                                       const std::array<std::uint8_t, kSealNonceBytes>& nonce) {
  const auto ad = associated_data(id);
  std::vector<std::uint8_t> out(kSealOverhead + payload.size());
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(epoch >> (8 * i));
  std::copy(nonce.begin(), nonce.end(), out.begin() + 4);
  unsigned long long written = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(out.data() + 4 + kSealNonceBytes, &written, payload.data(),
                                             payload.size(), ad.data(), ad.size(), nullptr, nonce.data(), key.data());
  out.resize(4 + kSealNonceBytes + written);
  return out;
}

std::optional<std::vector<std::uint8_t>> open_payload(std::span<const std::uint8_t> sealed, const MessageId& id,
                                                      const std::map<std::uint32_t, SymmetricKey>& keys) {
  if (sealed.size() < kSealOverhead) return std::nullopt;
  std::uint32_t epoch = 0;
  for (int i = 0; i < 4; ++i) epoch |= std::uint32_t{sealed[static_cast<std::size_t>(i)]} << (8 * i);
  const auto key = keys.find(epoch);
  if (key == keys.end()) return std::nullopt;
  const auto ad = associated_data(id);
  std::vector<std::uint8_t> clear(sealed.size() - kSealOverhead);
  unsigned long long written = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(clear.data(), &written, nullptr, sealed.data() + 4 + kSealNonceBytes,
                                                 sealed.size() - 4 - kSealNonceBytes, ad.data(), ad.size(),
                                                 sealed.data() + 4, key->second.data()) != 0)
    return std::nullopt;
  clear.resize(written);
  return clear;
}

}  // namespace dissem::engine
