#include "engine/security/message_signature.h"

#include <sodium.h>

#include <cstring>
#include <string_view>

namespace dissem::engine {

namespace {

// Appends to a buffer sized in advance (GCC 12 at -O3 mistakes growing
// inserts of strings into byte vectors for overflows).
class ManifestWriter {
 public:
  explicit ManifestWriter(std::size_t size) : out_(size) {}
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void raw(std::string_view s) {
    if (!s.empty()) std::memcpy(out_.data() + at_, s.data(), s.size());
    at_ += s.size();
  }
  void bytes(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    raw(s);
  }
  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  void put(std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out_[at_++] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  std::vector<std::uint8_t> out_;
  std::size_t at_ = 0;
};

constexpr std::string_view kLabel = "dissem-manifest-3";

}  // namespace

std::vector<std::uint8_t> manifest_bytes(const MessageMeta& meta) {
  ManifestWriter w(kLabel.size() + 4 + meta.id.group.size() + 4 + 8 + 4 + 4 + 8 + 4 + 4 + meta.tag.size() + 8 + 4 + 4 +
           meta.chain.size() + 4 + 4 + 8 * meta.supersedes.size());
  w.raw(kLabel);
  w.bytes(meta.id.group);
  w.u32(meta.id.publisher);
  w.u64(meta.id.seq);
  w.u32(meta.total_length);
  w.u32(meta.priority);
  w.u64(meta.expiry_ms);
  w.u32(meta.history_window);
  w.bytes(meta.tag);
  w.u64(meta.digest);
  w.u32(meta.key_epoch);
  w.bytes(meta.chain);
  w.u32((meta.replace ? 1u : 0u) | (meta.cancel ? 2u : 0u));
  w.u32(static_cast<std::uint32_t>(meta.supersedes.size()));
  for (const std::uint64_t s : meta.supersedes) w.u64(s);
  return w.take();
}

std::string sign_manifest(const MessageMeta& meta, const SigningKey& key) {
  const auto m = manifest_bytes(meta);
  std::string signature(crypto_sign_BYTES, '\0');
  crypto_sign_detached(reinterpret_cast<unsigned char*>(signature.data()), nullptr, m.data(), m.size(), key.data());
  return signature;
}

bool verify_manifest(const MessageMeta& meta, const VerifyKey& key) {
  if (meta.signature.size() != crypto_sign_BYTES) return false;
  const auto m = manifest_bytes(meta);
  return crypto_sign_verify_detached(reinterpret_cast<const unsigned char*>(meta.signature.data()), m.data(),
                                     m.size(), key.data()) == 0;
}

}  // namespace dissem::engine
