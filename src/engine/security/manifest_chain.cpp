#include "engine/security/manifest_chain.h"

#include <sodium.h>

#include <cstring>

#include "engine/security/message_signature.h"
#include "wire/codec.h"

namespace dissem::engine {

static_assert(kChainLinkBytes == wire::kChainLinkBytes, "the link the codec admits");

ChainLink manifest_link(const MessageMeta& meta) {
  const auto manifest = manifest_bytes(meta);
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, kChainLinkBytes);
  crypto_generichash_update(&state, manifest.data(), manifest.size());
  crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(meta.signature.data()),
                            meta.signature.size());
  ChainLink link{};
  crypto_generichash_final(&state, link.data(), link.size());
  return link;
}

std::string link_bytes(const ChainLink& link) { return std::string(link.begin(), link.end()); }

bool ManifestChain::vouched(const MessageId& id, const ChainLink& link) const {
  const auto it = links_.find(id);
  return it != links_.end() && it->second == link;
}

void ManifestChain::learn(const MessageMeta& meta, const ChainLink& link) {
  put(meta.id, link);
  if (meta.chain.size() != kChainLinkBytes || meta.id.seq <= 1) return;
  ChainLink previous{};
  std::memcpy(previous.data(), meta.chain.data(), previous.size());
  put(MessageId{meta.id.group, meta.id.publisher, meta.id.seq - 1}, previous);
}

void ManifestChain::put(const MessageId& id, const ChainLink& link) {
  if (capacity_ == 0) return;
  const auto [it, inserted] = links_.try_emplace(id, link);
  if (!inserted) {
    // An authentic manifest already known for this id stays: a publisher
    // signs one manifest per id (a second one, after it lost its cache, is
    // checked on its own signature).
    return;
  }
  order_.push_back(id);
  while (links_.size() > capacity_) {
    links_.erase(order_.front());
    order_.pop_front();
  }
}

}  // namespace dissem::engine
