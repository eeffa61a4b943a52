#include "wire/codec.h"

#include <algorithm>
#include <cstdint>

#include "wire/utf8.h"

namespace dissem::wire {
namespace {


std::uint8_t prefix(Kind k) { return static_cast<std::uint8_t>(kWireVersion << 4 | static_cast<std::uint8_t>(k)); }

std::vector<std::uint8_t> frame(Kind kind, const google::protobuf::MessageLite& m) {
  const std::size_t body = m.ByteSizeLong();
  std::vector<std::uint8_t> out(body + 1);
  out[0] = prefix(kind);
  m.SerializeWithCachedSizesToArray(out.data() + 1);
  return out;
}

bool valid_group(const std::string& g, const Limits& limits) {
  return !g.empty() && g.size() <= limits.max_group_name;
}

// Supersession fields (DataFragment and CodedSymbol): a replace names its
// tag; a cancel ends something; superseded ranges are ascending, disjoint,
// non-empty, older than the message itself and at most the limit.
template <class Datagram>
std::optional<DecodeError> check_supersession(const Datagram& d, const Limits& limits) {
  const auto& s = d.supersedes();
  if (d.replace() && d.tag().empty()) return DecodeError::BadSupersession;
  if (d.cancel() && !d.replace() && s.empty()) return DecodeError::BadSupersession;
  if (s.size() % 2 != 0 || static_cast<std::size_t>(s.size()) / 2 > limits.max_superseded_ranges)
    return DecodeError::BadSupersession;
  std::uint64_t last = 0;
  for (int i = 0; i < s.size(); i += 2) {
    if (s[i] == 0 || s[i] < last || s[i] >= s[i + 1] || s[i + 1] > d.seq()) return DecodeError::BadSupersession;
    last = s[i + 1];
  }
  return std::nullopt;
}

std::optional<DecodeError> check_data(const DataFragment& d, const Limits& limits) {
  // Framed by hand, so the names' UTF-8 is checked here (protobuf checks the other kinds').
  if (!valid_group(d.group(), limits) || !valid_utf8(d.group())) return DecodeError::BadGroup;
  if (!valid_utf8(d.tag())) return DecodeError::Unparseable;
  if (d.total_length() == 0 || d.total_length() > limits.max_message_size) return DecodeError::BadLength;
  if (d.payload().empty() || d.seq() == 0 || d.publisher() == 0) return DecodeError::BadRange;
  const std::uint64_t end = std::uint64_t{d.offset()} + d.payload().size();
  if (end > d.total_length()) return DecodeError::BadRange;
  if (d.block_symbols() > kMaxBlockSymbols) return DecodeError::BadRange;
  if (d.digest() == 0) return DecodeError::BadDigest;
  if (!d.signature().empty() && d.signature().size() != kSignatureBytes) return DecodeError::BadDigest;
  if (!d.chain().empty() && (d.chain().size() != kChainLinkBytes || d.signature().empty()))
    return DecodeError::BadDigest;
  return check_supersession(d, limits);
}


// A coded symbol must fit the block layout it implies: its payload is the
// stride, its block exists, explicit coefficients cover exactly that block.
std::optional<DecodeError> check_coded(const CodedSymbol& c, const Limits& limits) {
  if (!valid_group(c.group(), limits)) return DecodeError::BadGroup;
  if (c.total_length() == 0 || c.total_length() > limits.max_message_size) return DecodeError::BadLength;
  if (c.payload().empty() || c.seq() == 0 || c.publisher() == 0) return DecodeError::BadRange;
  if (c.block_symbols() > kMaxBlockSymbols) return DecodeError::BadRange;
  const std::uint64_t stride = c.payload().size();
  if (stride > c.total_length()) return DecodeError::BadRange;
  const std::uint64_t fragments = (std::uint64_t{c.total_length()} + stride - 1) / stride;
  const std::uint64_t k = block_symbols_of(c.block_symbols());
  const std::uint64_t blocks = (fragments + k - 1) / k;
  if (c.block() >= blocks) return DecodeError::BadRange;
  const std::uint64_t in_block = std::min(k, fragments - std::uint64_t{c.block()} * k);
  if (!c.coefficients().empty() && c.coefficients().size() != in_block) return DecodeError::BadRange;
  if (c.digest() == 0) return DecodeError::BadDigest;
  if (!c.signature().empty() && c.signature().size() != kSignatureBytes) return DecodeError::BadDigest;
  if (!c.chain().empty() && (c.chain().size() != kChainLinkBytes || c.signature().empty()))
    return DecodeError::BadDigest;
  return check_supersession(c, limits);
}

// A window symbol combines 1..64 consecutive messages, not all excluded.
std::optional<DecodeError> check_window(const WindowSymbol& w, const Limits& limits) {
  if (!valid_group(w.group(), limits)) return DecodeError::BadGroup;
  if (w.payload().empty() || w.first_seq() == 0 || w.publisher() == 0) return DecodeError::BadRange;
  if (w.payload().size() > limits.max_message_size) return DecodeError::BadLength;
  if (w.count() == 0 || w.count() > kMaxWindowMessages || w.first_seq() > UINT64_MAX - w.count())
    return DecodeError::BadRange;
  if (w.excluded().size() > (w.count() + 7) / 8) return DecodeError::BadRange;
  std::uint32_t included = 0;
  for (std::uint32_t i = 0; i < w.count(); ++i)
    if (i / 8 >= w.excluded().size() || (static_cast<std::uint8_t>(w.excluded()[i / 8]) >> (i % 8) & 1) == 0) ++included;
  if (included == 0) return DecodeError::BadRange;
  return std::nullopt;
}

std::optional<DecodeError> check_window_needs(const PublisherWants& w) {
  for (const auto& n : w.windows()) {
    if (n.first_seq() == 0 || n.count() == 0 || n.count() > kMaxWindowMessages || n.deficit() == 0 ||
        n.deficit() > n.count() || n.first_seq() > UINT64_MAX - n.count() || n.held().size() > (n.count() + 7) / 8)
      return DecodeError::BadRange;
  }
  return std::nullopt;
}

std::optional<DecodeError> check_block_needs(const MessageWants& m, const Limits& limits) {
  if (static_cast<std::size_t>(m.blocks_size()) > limits.max_request_ranges) return DecodeError::OversizedRequest;
  for (const auto& b : m.blocks()) {
    if (b.deficit() == 0 || b.deficit() > kMaxBlockSymbols || b.symbol_size() == 0 ||
        b.block_symbols() > kMaxBlockSymbols ||
        b.symbol_size() > limits.max_message_size || b.held().size() > (kMaxBlockSymbols + 7) / 8 ||
        std::uint64_t{b.block()} * b.symbol_size() >= limits.max_message_size)
      return DecodeError::BadRange;
  }
  return std::nullopt;
}

std::optional<DecodeError> check_request(const MissingFragmentRequest& r, const Limits& limits) {
  std::size_t messages = 0;
  std::size_t ranges = 0;
  for (const auto& w : r.wants()) {
    if (!valid_group(w.group(), limits)) return DecodeError::BadGroup;
    messages += static_cast<std::size_t>(w.messages_size()) + static_cast<std::size_t>(w.windows_size());
    if (messages > limits.max_request_messages) return DecodeError::OversizedRequest;
    if (auto err = check_window_needs(w)) return err;
    for (const auto& m : w.messages()) {
      if (m.seq() == 0) return DecodeError::BadRange;
      const auto& rs = m.ranges();
      if (rs.size() % 2 != 0) return DecodeError::BadRange;
      ranges += static_cast<std::size_t>(rs.size() / 2);
      if (ranges > limits.max_request_ranges) return DecodeError::OversizedRequest;
      for (int i = 0; i < rs.size(); i += 2) {
        if (rs[i] >= rs[i + 1] || rs[i + 1] > limits.max_message_size) return DecodeError::BadRange;
      }
      ranges += static_cast<std::size_t>(m.blocks_size());
      if (ranges > limits.max_request_ranges) return DecodeError::OversizedRequest;
      if (auto err = check_block_needs(m, limits)) return err;
    }
  }
  return std::nullopt;
}

std::optional<DecodeError> check_beacon(const Beacon& b, const Limits& limits) {
  if (static_cast<std::size_t>(b.newest_size()) > limits.max_beacon_entries ||
      static_cast<std::size_t>(b.echoes_size()) > limits.max_beacon_entries)
    return DecodeError::OversizedRequest;
  for (const auto& n : b.newest()) {
    if (!valid_group(n.group(), limits)) return DecodeError::BadGroup;
    if (n.oldest() > n.seq()) return DecodeError::BadRange;
  }
  if (static_cast<std::size_t>(b.reception_size()) > limits.max_beacon_entries) return DecodeError::OversizedRequest;
  for (const auto& r : b.reception())
    if (r.publisher() == 0 || r.loss_permille() > 1000) return DecodeError::BadRange;
  if (static_cast<std::size_t>(b.interests_size()) > limits.max_beacon_entries) return DecodeError::OversizedRequest;
  for (const auto& i : b.interests()) {
    if (!valid_group(i.group(), limits)) return DecodeError::BadGroup;
    if (i.distance() > limits.max_interest_distance || (i.distance() > 0 && i.via() == 0))
      return DecodeError::BadRange;
    // A node is at distance 0 only from itself, and every vector names its subscriber.
    if (i.subscriber() == 0 || (i.distance() == 0 && i.subscriber() != b.node())) return DecodeError::BadRange;
    // Nor is it ever further from itself, or its own next hop.
    if (i.distance() > 0 && (i.subscriber() == b.node() || i.via() == b.node())) return DecodeError::BadRange;
  }
  return std::nullopt;
}

std::optional<DecodeError> check_summary(const Summary& s, const Limits& limits) {
  if (s.node() == 0) return DecodeError::BadRange;
  if (static_cast<std::size_t>(s.wants_size()) > limits.max_summary_wants ||
      static_cast<std::size_t>(s.streams_size()) > limits.max_summary_streams)
    return DecodeError::OversizedRequest;
  for (const auto& g : s.wants()) {
    if (!valid_group(g, limits)) return DecodeError::BadGroup;
  }
  std::size_t ranges = 0;
  for (const auto& st : s.streams()) {
    if (!valid_group(st.group(), limits)) return DecodeError::BadGroup;
    if (st.publisher() == 0) return DecodeError::BadRange;
    const auto& h = st.held();
    if (h.size() % 2 != 0) return DecodeError::BadRange;
    ranges += static_cast<std::size_t>(h.size() / 2);
    if (ranges > limits.max_summary_ranges) return DecodeError::OversizedRequest;
    // Ascending, non-empty, sequence numbers from 1: what a RangeSet yields.
    std::uint64_t previous_end = 1;
    for (int i = 0; i < h.size(); i += 2) {
      if (h[i] < previous_end || h[i] >= h[i + 1]) return DecodeError::BadRange;
      previous_end = h[i + 1];
    }
  }
  return std::nullopt;
}

// Items: a varint length and the frame, 2 to 64 of them, filling the datagram exactly.
std::optional<DecodeError> read_bundle(std::span<const std::uint8_t> body, std::vector<std::span<const std::uint8_t>>& items) {
  items.clear();
  Reader r(body);
  while (r.remaining() > 0) {
    const std::uint64_t n = r.varint();
    const auto item = r.take(static_cast<std::size_t>(std::min<std::uint64_t>(n, SIZE_MAX)));
    if (!r.ok()) return DecodeError::Unparseable;
    if (item.empty()) return DecodeError::Empty;
    // Every item a frame of this version, and no bundle in a bundle.
    if (item[0] >> 4 != kWireVersion) return DecodeError::BadVersion;
    if ((item[0] & 0x0f) == static_cast<std::uint8_t>(Kind::Bundle)) return DecodeError::UnknownKind;
    if (items.size() == kMaxBundleItems) return DecodeError::BadRange;
    items.push_back(item);
  }
  if (items.size() < 2) return DecodeError::BadRange;
  return std::nullopt;
}

}  // namespace

std::optional<DecodeError> decode(std::span<const std::uint8_t> bytes, const Limits& limits, Decoded& out,
                                  const GroupRefs* refs, DataContext* context) {
  if (bytes.empty()) return DecodeError::Empty;
  const std::uint8_t version = bytes[0] >> 4;
  const std::uint8_t kind = bytes[0] & 0x0f;
  if (version != kWireVersion) return DecodeError::BadVersion;
  const void* body = bytes.data() + 1;
  const int size = static_cast<int>(bytes.size() - 1);
  switch (static_cast<Kind>(kind)) {
    case Kind::Data:
      out.kind = Kind::Data;
      if (auto err = decode_data(bytes.subspan(1), refs, context, out.data, out.data_info)) return err;
      return check_data(out.data, limits);
    case Kind::Request:
      out.kind = Kind::Request;
      if (!out.request.ParseFromArray(body, size)) return DecodeError::Unparseable;
      return check_request(out.request, limits);
    case Kind::Beacon:
      out.kind = Kind::Beacon;
      if (!out.beacon.ParseFromArray(body, size)) return DecodeError::Unparseable;
      return check_beacon(out.beacon, limits);
    case Kind::Summary:
      out.kind = Kind::Summary;
      if (!out.summary.ParseFromArray(body, size)) return DecodeError::Unparseable;
      return check_summary(out.summary, limits);
    case Kind::Coded:
      out.kind = Kind::Coded;
      if (!out.coded.ParseFromArray(body, size)) return DecodeError::Unparseable;
      return check_coded(out.coded, limits);
    case Kind::Window:
      out.kind = Kind::Window;
      if (!out.window.ParseFromArray(body, size)) return DecodeError::Unparseable;
      return check_window(out.window, limits);
    case Kind::Bundle:
      out.kind = Kind::Bundle;
      return read_bundle(bytes.subspan(1), out.items);
  }
  return DecodeError::UnknownKind;
}

std::vector<std::uint8_t> encode(const DataFragment& m, const DataEncoding& e) {
  std::vector<std::uint8_t> out;
  encode_data(m, e, out);
  return out;
}
std::vector<std::uint8_t> encode(const DataFragment& m) { return encode(m, DataEncoding{}); }
std::vector<std::uint8_t> encode(const MissingFragmentRequest& m) { return frame(Kind::Request, m); }
std::vector<std::uint8_t> encode(const Beacon& m) { return frame(Kind::Beacon, m); }
std::vector<std::uint8_t> encode(const Summary& m) { return frame(Kind::Summary, m); }
std::vector<std::uint8_t> encode(const CodedSymbol& m) { return frame(Kind::Coded, m); }
std::vector<std::uint8_t> encode(const WindowSymbol& m) { return frame(Kind::Window, m); }

std::vector<std::uint8_t> encode_bundle(std::span<const std::vector<std::uint8_t>> frames,
                                        std::vector<std::size_t>* item_sizes) {
  std::vector<std::uint8_t> out{prefix(Kind::Bundle)};
  DataContext context;
  if (item_sizes != nullptr) item_sizes->clear();
  for (const auto& f : frames) {
    const auto item = compact_in_bundle(f, context);
    if (item_sizes != nullptr) item_sizes->push_back(item.size());
    put_varint(out, item.size());
    out.insert(out.end(), item.begin(), item.end());
  }
  return out;
}

std::size_t encoded_size(const google::protobuf::MessageLite& m) { return m.ByteSizeLong() + 1; }
std::size_t encoded_size(const DataFragment& m, const DataEncoding& e) { return data_frame_size(m, e); }

}  // namespace dissem::wire
