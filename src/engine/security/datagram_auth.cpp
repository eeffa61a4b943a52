#include "engine/security/datagram_auth.h"

#include <sodium.h>

#include <algorithm>

namespace dissem::engine {

namespace {

constexpr std::size_t kTagBytes = 16;

template <class T>
void put(std::vector<std::uint8_t>& out, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

template <class T>
T get(const std::uint8_t* p) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(p[i]) << (8 * i));
  return v;
}

void tag_of(std::span<const std::uint8_t> bytes, const SymmetricKey& key, std::uint8_t* out) {
  crypto_generichash(out, kTagBytes, bytes.data(), bytes.size(), key.data(), key.size());
}

}  // namespace

void seal_datagram(std::vector<std::uint8_t>& datagram, const SymmetricKey& key, std::uint32_t epoch, NodeId sender,
                   std::uint64_t counter) {
  datagram.reserve(datagram.size() + kAuthTrailerBytes);
  put<std::uint32_t>(datagram, sender);
  put<std::uint64_t>(datagram, counter);
  put<std::uint32_t>(datagram, epoch);
  const std::size_t covered = datagram.size();
  datagram.resize(covered + kTagBytes);
  tag_of(std::span(datagram.data(), covered), key, datagram.data() + covered);
}

std::optional<OpenedDatagram> open_datagram(std::span<const std::uint8_t> datagram,
                                            const std::map<std::uint32_t, SymmetricKey>& keys) {
  if (datagram.size() <= kAuthTrailerBytes) return std::nullopt;
  const std::size_t frame = datagram.size() - kAuthTrailerBytes;
  const std::uint8_t* trailer = datagram.data() + frame;
  const std::uint32_t epoch = get<std::uint32_t>(trailer + 12);
  const auto key = keys.find(epoch);
  if (key == keys.end()) return std::nullopt;
  std::uint8_t expected[kTagBytes];
  tag_of(datagram.first(frame + kAuthTrailerBytes - kTagBytes), key->second, expected);
  if (crypto_verify_16(expected, trailer + 16) != 0) return std::nullopt;
  return OpenedDatagram{datagram.first(frame), get<std::uint32_t>(trailer), get<std::uint64_t>(trailer + 4), epoch};
}

bool ReplayGuard::accept(NodeId sender, std::uint64_t counter) {
  auto it = senders_.find(sender);
  if (it == senders_.end()) {
    if (senders_.size() >= max_senders_) {
      // Full (only members, holding the network key, get here): forget the
      // sender heard from longest ago.
      auto oldest = std::min_element(senders_.begin(), senders_.end(),
                                     [](const auto& a, const auto& b) { return a.second.newest < b.second.newest; });
      senders_.erase(oldest);
    }
    it = senders_.emplace(sender, Sender{}).first;
  }
  Sender& s = it->second;
  if (counter > s.newest) {
    s.newest = counter;
    const std::uint64_t floor = counter > window_ ? counter - window_ : 0;
    std::erase_if(s.recent, [floor](std::uint64_t c) { return c < floor; });
    if (s.recent.size() >= kRecent) s.recent.erase(s.recent.begin());
    s.recent.push_back(counter);
    return true;
  }
  if (s.newest - counter > window_) return false;  // older than the window
  if (std::find(s.recent.begin(), s.recent.end(), counter) != s.recent.end()) return false;
  if (s.recent.size() >= kRecent && counter < s.recent.front()) return false;  // older than what is remembered
  if (s.recent.size() >= kRecent) s.recent.erase(s.recent.begin());
  s.recent.insert(std::upper_bound(s.recent.begin(), s.recent.end(), counter), counter);
  return true;
}

}  // namespace dissem::engine
