// Where a bridged message came from, carried across the bridge so that no
// gateway ever sends a message back to the side it came from, and several
// gateways on the same two networks can tell one message from another.
//
// dissem -> NORM: the NORM object's info (NORM_INFO) is a DisseminationInfo
// in binary: "DSMG", version 1, the dissem domain, the message's id
// (group, publisher, seq) and its tag.
//
// NORM -> dissem: the published message's tag is
// "norm/<norm domain>/<NORM sender id>/<32 hex digits>", the digits being a
// BLAKE2b-128 of the object's info and data, so that every gateway that
// receives the same object names it alike. The object's info itself does
// not cross (dissem messages carry a payload and a tag only).
//
// A domain names one NORM session or one dissem network as the operator
// sees it ([A-Za-z0-9._-], 1 to 32 characters); gateways on the same
// network must use the same name.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace dissem::norm_gateway {

inline constexpr std::size_t kMaxDomainLength = 32;

// Empty when `domain` is usable, else what is wrong with it.
std::string domain_problem(std::string_view domain);

// A dissem message as carried in a NORM object's info.
struct DisseminationInfo {
  std::string domain;  // the dissem network it was published in
  MessageId id;
  std::string tag;
};

std::vector<std::uint8_t> encode_info(const DisseminationInfo& info);
// nullopt when `bytes` is not a DisseminationInfo (any other NORM sender's info).
std::optional<DisseminationInfo> decode_info(std::span<const std::uint8_t> bytes);

// The tag of a NORM object published into dissem, and its parts.
struct NormOrigin {
  std::string domain;
  std::uint32_t sender = 0;
  std::string digest_hex;  // 32 lower-case hex digits
};

NormOrigin norm_origin_of(std::string_view domain, std::uint32_t sender, std::span<const std::uint8_t> info,
                          std::span<const std::uint8_t> data);
std::string tag_of(const NormOrigin& origin);
// nullopt when `tag` is not a NORM origin tag.
std::optional<NormOrigin> parse_tag(std::string_view tag);

}  // namespace dissem::norm_gateway
