// Datagram framing and validation: bytes <-> the messages of wire.proto.
// Data frames and bundles are framed by hand (data_frame.h, below); the
// other kinds are a prefix byte and a protobuf message.
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

#include "wire/decode_error.h"
#include "wire.pb.h"
#include "wire/data_frame.h"
#include "wire/group_refs.h"
#include "wire/varint.h"

namespace dissem::wire {

constexpr std::uint8_t kWireVersion = 3;

enum class Kind : std::uint8_t { Data = 1, Request = 2, Beacon = 3, Summary = 4, Coded = 5, Window = 6, Bundle = 7 };

// Items a Bundle may carry.
constexpr std::size_t kMaxBundleItems = 64;
// A Bundle's own prefix byte.
constexpr std::size_t kBundlePrefixBytes = 1;
// What bundling adds per item: its length, a varint.
constexpr std::size_t bundle_item_overhead(std::size_t item_bytes) { return varint_size(item_bytes); }

// Source symbols per coding block when a fragment or symbol says 0.
constexpr std::uint32_t kDefaultBlockSymbols = 64;
// A frame's block_symbols field: 0 (left out) is the default.
constexpr std::uint32_t block_symbols_of(std::uint32_t field) { return field == 0 ? kDefaultBlockSymbols : field; }
// Largest block: coefficients are bytes, one per source symbol.
constexpr std::uint32_t kMaxBlockSymbols = 255;
// Most messages one window symbol combines (and one window request spans).
constexpr std::uint32_t kMaxWindowMessages = 64;
// A manifest signature (Ed25519), when a fragment or symbol carries one.
constexpr std::size_t kSignatureBytes = 64;
// A manifest chain link (engine/security/manifest_chain.h), when one is carried.
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
  DataFrameInfo data_info;  // how the data frame named its group
  MissingFragmentRequest request;
  Beacon beacon;
  Summary summary;
  CodedSymbol coded;
  WindowSymbol window;
  // A bundle's items, each a frame of its own, pointing into the decoded
  // bytes: decode them one by one, in order, sharing one DataContext.
  std::vector<std::span<const std::uint8_t>> items;
};

// Parses and validates `bytes` into `out`. Returns the rejection reason, or
// nullopt when `out` holds a valid message of kind out.kind. `refs`
// resolves data frames' short group references (nullptr: none known, such
// frames are refused as unknown_group_ref); `context` is the bundle's, for
// its items (nullptr outside a bundle).
std::optional<DecodeError> decode(std::span<const std::uint8_t> bytes, const Limits& limits,
                                          Decoded& out, const GroupRefs* refs = nullptr,
                                          DataContext* context = nullptr);

std::vector<std::uint8_t> encode(const DataFragment& m, const DataEncoding& e);
// With the group's name and no reference: decodable by any node.
std::vector<std::uint8_t> encode(const DataFragment& m);
std::vector<std::uint8_t> encode(const MissingFragmentRequest& m);
std::vector<std::uint8_t> encode(const Beacon& m);
std::vector<std::uint8_t> encode(const Summary& m);
std::vector<std::uint8_t> encode(const CodedSymbol& m);
std::vector<std::uint8_t> encode(const WindowSymbol& m);
// Frames (each a whole encoded frame, not a bundle) as one Bundle datagram;
// data frames that follow one of the same stream lean on it (data_frame.h).
// `item_sizes`, when given, receives each item's size as bundled.
std::vector<std::uint8_t> encode_bundle(std::span<const std::vector<std::uint8_t>> frames,
                                        std::vector<std::size_t>* item_sizes = nullptr);

// Bytes on the wire for a message, prefix included, without serialising it.
std::size_t encoded_size(const google::protobuf::MessageLite& m);
std::size_t encoded_size(const DataFragment& m, const DataEncoding& e);
std::size_t encoded_size(const DataFragment& m) = delete;  // say how it is framed

}  // namespace dissem::wire
