#include "tools/norm_gateway/bridge_origin.h"

#include <sodium.h>

#include <array>
#include <charconv>
#include <cstring>

#include "wire/varint.h"

namespace dissem::norm_gateway {
namespace {

constexpr std::string_view kMagic = "DSMG";
constexpr std::uint8_t kVersion = 1;
constexpr std::string_view kTagPrefix = "norm/";
constexpr std::size_t kDigestBytes = 16;
// Groups and tags are short strings in dissem; bound what we read.
constexpr std::uint64_t kMaxField = 65535;

bool domain_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

// By resize and copy: GCC 12 warns falsely (stringop-overflow) when a small
// vector grows by insert, as wire::put_bytes does.
void append(std::vector<std::uint8_t>& out, std::string_view s) {
  const std::size_t at = out.size();
  out.resize(at + s.size());
  if (!s.empty()) std::memcpy(out.data() + at, s.data(), s.size());
}

void put_string(std::vector<std::uint8_t>& out, std::string_view s) {
  wire::put_varint(out, s.size());
  append(out, s);
}

std::optional<std::string> read_string(wire::Reader& r) {
  const std::uint64_t n = r.varint();
  if (!r.ok() || n > kMaxField) return std::nullopt;
  const auto bytes = r.take(static_cast<std::size_t>(n));
  if (!r.ok()) return std::nullopt;
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

std::string domain_problem(std::string_view domain) {
  if (domain.empty()) return "is empty";
  if (domain.size() > kMaxDomainLength) return "is longer than 32 characters";
  for (char c : domain) {
    if (!domain_char(c)) return "may hold only letters, digits, '.', '_' and '-'";
  }
  return {};
}

std::vector<std::uint8_t> encode_info(const DisseminationInfo& info) {
  std::vector<std::uint8_t> out;
  append(out, kMagic);
  out.push_back(kVersion);
  put_string(out, info.domain);
  put_string(out, info.id.group);
  wire::put_varint(out, info.id.publisher);
  wire::put_varint(out, info.id.seq);
  put_string(out, info.tag);
  return out;
}

std::optional<DisseminationInfo> decode_info(std::span<const std::uint8_t> bytes) {
  wire::Reader r(bytes);
  const auto magic = r.take(kMagic.size());
  if (!r.ok() || std::string_view(reinterpret_cast<const char*>(magic.data()), magic.size()) != kMagic) {
    return std::nullopt;
  }
  if (r.byte() != kVersion || !r.ok()) return std::nullopt;
  DisseminationInfo info;
  auto domain = read_string(r);
  auto group = read_string(r);
  if (!domain || !group || !domain_problem(*domain).empty()) return std::nullopt;
  const std::uint64_t publisher = r.varint();
  const std::uint64_t seq = r.varint();
  auto tag = read_string(r);
  if (!r.ok() || !tag || publisher > UINT32_MAX || r.remaining() != 0) return std::nullopt;
  info.domain = std::move(*domain);
  info.id = MessageId{std::move(*group), static_cast<NodeId>(publisher), seq};
  info.tag = std::move(*tag);
  return info;
}

NormOrigin norm_origin_of(std::string_view domain, std::uint32_t sender, std::span<const std::uint8_t> info,
                          std::span<const std::uint8_t> data) {
  // Info and data are hashed as two length-prefixed parts, so that moving
  // bytes from one to the other changes the name.
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, kDigestBytes);
  std::vector<std::uint8_t> lengths;
  wire::put_fixed(lengths, info.size(), 8);
  wire::put_fixed(lengths, data.size(), 8);
  crypto_generichash_update(&state, lengths.data(), lengths.size());
  crypto_generichash_update(&state, info.data(), info.size());
  crypto_generichash_update(&state, data.data(), data.size());
  std::array<std::uint8_t, kDigestBytes> digest{};
  crypto_generichash_final(&state, digest.data(), digest.size());
  static constexpr char kHex[] = "0123456789abcdef";
  NormOrigin origin{std::string(domain), sender, {}};
  for (std::uint8_t b : digest) {
    origin.digest_hex += kHex[b >> 4];
    origin.digest_hex += kHex[b & 15];
  }
  return origin;
}

std::string tag_of(const NormOrigin& origin) {
  return std::string(kTagPrefix) + origin.domain + "/" + std::to_string(origin.sender) + "/" + origin.digest_hex;
}

std::optional<NormOrigin> parse_tag(std::string_view tag) {
  if (tag.substr(0, kTagPrefix.size()) != kTagPrefix) return std::nullopt;
  tag.remove_prefix(kTagPrefix.size());
  const auto slash1 = tag.find('/');
  if (slash1 == std::string_view::npos) return std::nullopt;
  const auto slash2 = tag.find('/', slash1 + 1);
  if (slash2 == std::string_view::npos) return std::nullopt;
  NormOrigin o;
  o.domain = std::string(tag.substr(0, slash1));
  const std::string_view sender = tag.substr(slash1 + 1, slash2 - slash1 - 1);
  o.digest_hex = std::string(tag.substr(slash2 + 1));
  if (!domain_problem(o.domain).empty() || sender.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(sender.data(), sender.data() + sender.size(), o.sender);
  if (ec != std::errc{} || end != sender.data() + sender.size()) return std::nullopt;
  if (o.digest_hex.size() != 2 * kDigestBytes) return std::nullopt;
  for (char c : o.digest_hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  }
  return o;
}

}  // namespace dissem::norm_gateway
