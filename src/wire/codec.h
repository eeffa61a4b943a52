// Datagram framing and validation: bytes <-> protobuf messages of wire.proto.
//
// decode() is the single gate every received datagram passes. It rejects,
// with a reason the engine counts, anything malformed or hostile before
// protocol logic sees it, so the rest of the engine can trust field values
// (offsets inside the message, bounded lengths and request sizes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/stats.h"
#include "wire.pb.h"

namespace dissem::wire {

constexpr std::uint8_t kWireVersion = 2;

enum class Kind : std::uint8_t { Data = 1, Request = 2, Beacon = 3, Summary = 4, Coded = 5, Window = 6, Bundle = 7 };

// Items a Bundle may carry.
constexpr std::size_t kMaxBundleItems = 64;
// What bundling adds per item: the field's tag and a length of up to two bytes.
constexpr std::size_t kBundleItemOverhead = 3;

// Source symbols per coding block when a fragment or symbol says 0.
constexpr std::uint32_t kDefaultBlockSymbols = 64;
// Largest block: coefficients are bytes, one per source symbol.
constexpr std::uint32_t kMaxBlockSymbols = 255;
// Most messages one window symbol combines (and one window request spans).
constexpr std::uint32_t kMaxWindowMessages = 64;
// A manifest signature (Ed25519), when a fragment or symbol carries one.
constexpr std::size_t kSignatureBytes = 64;
// A manifest chain link (engine/manifest_chain.h), when one is carried.
constexpr std::size_t kChainLinkBytes = 16;

struct Limits {
  std::uint32_t max_message_size = 64u << 20;
  std::size_t max_group_name = 255;
  std::size_t max_request_ranges = 4096;     // [begin, end) pairs in one MFR
  std::size_t max_request_messages = 4096;   // message entries in one MFR
  std::size_t max_beacon_entries = 1024;     // newest, echoes, interests: each
  std::uint32_t max_interest_distance = 255;
  std::size_t max_summary_streams = 1024;
  std::size_t max_summary_ranges = 4096;     // [begin, end) pairs over all streams
  std::size_t max_summary_wants = 1024;
  std::size_t max_superseded_ranges = 64;    // [begin, end) pairs a message may supersede
};

// Reusable decode target: one object per engine avoids an allocation per datagram.
struct Decoded {
  Kind kind = Kind::Data;
  DataFragment data;
  MissingFragmentRequest request;
  Beacon beacon;
  Summary summary;
  CodedSymbol coded;
  WindowSymbol window;
  Bundle bundle;  // items are decoded one by one, with decode() again
};

// Parses and validates `bytes` into `out`. Returns the rejection reason, or
// nullopt when `out` holds a valid message of kind out.kind.
std::optional<engine::DecodeError> decode(std::span<const std::uint8_t> bytes, const Limits& limits,
                                          Decoded& out);

std::vector<std::uint8_t> encode(const DataFragment& m);
std::vector<std::uint8_t> encode(const MissingFragmentRequest& m);
std::vector<std::uint8_t> encode(const Beacon& m);
std::vector<std::uint8_t> encode(const Summary& m);
std::vector<std::uint8_t> encode(const CodedSymbol& m);
std::vector<std::uint8_t> encode(const WindowSymbol& m);
std::vector<std::uint8_t> encode(const Bundle& m);

// Bytes on the wire for a message, prefix included, without serialising it.
std::size_t encoded_size(const google::protobuf::MessageLite& m);

}  // namespace dissem::wire
