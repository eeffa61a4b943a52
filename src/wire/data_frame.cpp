#include "wire/data_frame.h"

#include "wire/message_digest.h"
#include "wire/varint.h"

namespace dissem::wire {
namespace {


constexpr std::uint8_t kDataPrefix = 0x31;  // version 3, kind 1 (codec.h)

// flags
constexpr std::uint8_t kPart = 0x01;      // offset and total_length follow: one fragment of several
constexpr std::uint8_t kNamed = 0x02;     // the group's name in full, then its ref (0 = none)
constexpr std::uint8_t kDigest = 0x04;    // the digest (always with kPart)
constexpr std::uint8_t kRepair = 0x08;
constexpr std::uint8_t kContext = 0x10;   // in a bundle: publisher and group of the previous data frame
constexpr std::uint8_t kPriority = 0x20;
constexpr std::uint8_t kExpiry = 0x40;
constexpr std::uint8_t kMore = 0x80;      // a second flags byte follows
// flags2
constexpr std::uint8_t kTag = 0x01;
constexpr std::uint8_t kHistory = 0x02;
constexpr std::uint8_t kBlock = 0x04;
constexpr std::uint8_t kSigned = 0x08;    // signature (length-prefixed) and key epoch
constexpr std::uint8_t kChain = 0x10;     // chain link (length-prefixed)
constexpr std::uint8_t kSupersession = 0x20;
constexpr std::uint8_t kHops = 0x40;
constexpr std::uint8_t kForwarder = 0x80;  // rebroadcasts only
// supersession sub-flags
constexpr std::uint8_t kReplace = 0x01;
constexpr std::uint8_t kCancel = 0x02;
constexpr std::uint8_t kRanges = 0x04;

bool whole(const DataFragment& m, std::size_t payload) { return m.offset() == 0 && payload == m.total_length(); }

struct Flags {
  std::uint8_t first = 0;
  std::uint8_t second = 0;
};

Flags flags_of(const DataFragment& m, const DataEncoding& e, std::size_t payload) {
  Flags f;
  if (!whole(m, payload)) f.first |= kPart | kDigest;
  if (e.explicit_digest) f.first |= kDigest;
  if (e.with_name || e.group_ref == 0) f.first |= kNamed;
  if (m.repair()) f.first |= kRepair;
  if (m.priority() != 0) f.first |= kPriority;
  if (m.expiry_ms() != 0) f.first |= kExpiry;
  if (!m.tag().empty()) f.second |= kTag;
  if (m.history_window() != 0) f.second |= kHistory;
  if (m.block_symbols() != 0) f.second |= kBlock;
  if (!m.signature().empty() || m.key_epoch() != 0) f.second |= kSigned;
  if (!m.chain().empty()) f.second |= kChain;
  if (m.replace() || m.cancel() || !m.supersedes().empty()) f.second |= kSupersession;
  if (m.hops() != 0) f.second |= kHops;
  if (m.forwarder() != 0) f.second |= kForwarder;
  if (f.second != 0) f.first |= kMore;
  return f;
}

std::uint8_t supersession_flags(const DataFragment& m) {
  return static_cast<std::uint8_t>((m.replace() ? kReplace : 0) | (m.cancel() ? kCancel : 0) |
                                   (m.supersedes().empty() ? 0 : kRanges));
}

// The options after the group and sequence number, in flag order.
void encode_options(const DataFragment& m, Flags f, std::vector<std::uint8_t>& out) {
  if (f.first & kPart) {
    put_varint(out, m.offset());
    put_varint(out, m.total_length());
  }
  if (f.first & kDigest) put_fixed(out, m.digest(), 8);
  if (f.first & kPriority) put_varint(out, m.priority());
  if (f.first & kExpiry) put_fixed(out, m.expiry_ms(), 4);
  if (f.second & kTag) {
    put_varint(out, m.tag().size());
    put_bytes(out, m.tag());
  }
  if (f.second & kHistory) put_varint(out, m.history_window());
  if (f.second & kBlock) put_varint(out, m.block_symbols());
  if (f.second & kSigned) {
    put_varint(out, m.signature().size());
    put_bytes(out, m.signature());
    put_varint(out, m.key_epoch());
  }
  if (f.second & kChain) {
    put_varint(out, m.chain().size());
    put_bytes(out, m.chain());
  }
  if (f.second & kSupersession) {
    out.push_back(supersession_flags(m));
    if (!m.supersedes().empty()) {
      put_varint(out, static_cast<std::uint64_t>(m.supersedes().size()));
      for (const std::uint64_t v : m.supersedes()) put_varint(out, v);
    }
  }
  if (f.second & kHops) put_varint(out, m.hops());
  if (f.second & kForwarder) put_fixed(out, m.forwarder(), 4);
}

std::size_t options_size(const DataFragment& m, Flags f) {
  std::size_t n = 0;
  if (f.first & kPart) n += varint_size(m.offset()) + varint_size(m.total_length());
  if (f.first & kDigest) n += 8;
  if (f.first & kPriority) n += varint_size(m.priority());
  if (f.first & kExpiry) n += 4;
  if (f.second & kTag) n += varint_size(m.tag().size()) + m.tag().size();
  if (f.second & kHistory) n += varint_size(m.history_window());
  if (f.second & kBlock) n += varint_size(m.block_symbols());
  if (f.second & kSigned)
    n += varint_size(m.signature().size()) + m.signature().size() + varint_size(m.key_epoch());
  if (f.second & kChain) n += varint_size(m.chain().size()) + m.chain().size();
  if (f.second & kSupersession) {
    n += 1;
    if (!m.supersedes().empty()) {
      n += varint_size(static_cast<std::uint64_t>(m.supersedes().size()));
      for (const std::uint64_t v : m.supersedes()) n += varint_size(v);
    }
  }
  if (f.second & kHops) n += varint_size(m.hops());
  if (f.second & kForwarder) n += 4;
  return n;
}

std::string as_string(std::span<const std::uint8_t> s) { return {s.begin(), s.end()}; }

// Reads the options into `out`; false when the bytes run out.
bool decode_options(Reader& r, Flags f, DataFragment& out) {
  if (f.first & kPart) {
    const std::uint64_t offset = r.varint();
    const std::uint64_t total = r.varint();
    if (offset > UINT32_MAX || total > UINT32_MAX) return false;
    out.set_offset(static_cast<std::uint32_t>(offset));
    out.set_total_length(static_cast<std::uint32_t>(total));
  }
  if (f.first & kDigest) out.set_digest(r.fixed(8));
  if (f.first & kPriority) out.set_priority(static_cast<std::uint32_t>(std::min<std::uint64_t>(r.varint(), UINT32_MAX)));
  if (f.first & kExpiry) out.set_expiry_ms(static_cast<std::uint32_t>(r.fixed(4)));
  if (f.second & kTag) {
    const auto n = r.varint();
    const auto s = r.take(static_cast<std::size_t>(std::min<std::uint64_t>(n, SIZE_MAX)));
    if (!r.ok()) return false;
    out.set_tag(as_string(s));
  }
  if (f.second & kHistory) out.set_history_window(static_cast<std::uint32_t>(std::min<std::uint64_t>(r.varint(), UINT32_MAX)));
  if (f.second & kBlock) out.set_block_symbols(static_cast<std::uint32_t>(std::min<std::uint64_t>(r.varint(), UINT32_MAX)));
  if (f.second & kSigned) {
    const auto n = r.varint();
    const auto s = r.take(static_cast<std::size_t>(std::min<std::uint64_t>(n, SIZE_MAX)));
    out.set_signature(as_string(s));
    out.set_key_epoch(static_cast<std::uint32_t>(std::min<std::uint64_t>(r.varint(), UINT32_MAX)));
  }
  if (f.second & kChain) {
    const auto n = r.varint();
    out.set_chain(as_string(r.take(static_cast<std::size_t>(std::min<std::uint64_t>(n, SIZE_MAX)))));
  }
  if (f.second & kSupersession) {
    const std::uint8_t s = r.byte();
    if (s & ~(kReplace | kCancel | kRanges)) return false;
    out.set_replace(s & kReplace);
    out.set_cancel(s & kCancel);
    if (s & kRanges) {
      const std::uint64_t count = r.varint();
      // Each value takes at least one byte: a count beyond what is left is a lie.
      if (count == 0 || count > r.remaining()) return false;
      for (std::uint64_t i = 0; i < count; ++i) out.add_supersedes(r.varint());
    }
  }
  if (f.second & kHops) out.set_hops(static_cast<std::uint32_t>(std::min<std::uint64_t>(r.varint(), UINT32_MAX)));
  if (f.second & kForwarder) out.set_forwarder(static_cast<std::uint32_t>(r.fixed(4)));
  return r.ok();
}

// The group and sequence number, from the frame or from the bundle's
// context (`previous`, the data frame before this one in its bundle).
// `next` becomes this frame's context whenever its identity could be read,
// a group unknown by its ref included, so that the context frames after it
// fail for the same reason, never under another frame's name.
std::optional<DecodeError> decode_identity(Reader& r, Flags f, const GroupRefs* refs, const DataContext& previous,
                                           DataContext& next, DataFragment& out, DataFrameInfo& info) {
  if (f.first & kContext) {
    if (!previous.valid || (f.first & kNamed)) return DecodeError::Unparseable;
    const std::int64_t delta = unzigzag(r.varint());
    if (!r.ok()) return DecodeError::Unparseable;
    const std::uint64_t base = previous.seq;
    if ((delta >= 0 && base > UINT64_MAX - static_cast<std::uint64_t>(delta)) ||
        (delta < 0 && static_cast<std::uint64_t>(-(delta + 1)) >= base))
      return DecodeError::BadRange;
    next = previous;
    next.seq = base + static_cast<std::uint64_t>(delta);
    info.group_ref = previous.group_ref;
    if (previous.group.empty()) return DecodeError::UnknownGroupRef;
  } else {
    next.publisher = static_cast<std::uint32_t>(r.fixed(4));
    if (f.first & kNamed) {
      const auto n = r.varint();
      next.group = as_string(r.take(static_cast<std::size_t>(std::min<std::uint64_t>(n, SIZE_MAX))));
      info.named = true;
    }
    const auto ref = r.varint();
    next.seq = r.varint();
    if (!r.ok() || ref > UINT32_MAX) return DecodeError::Unparseable;
    next.group_ref = info.group_ref = static_cast<std::uint32_t>(ref);
    next.valid = true;
    if (!(f.first & kNamed)) {
      if (ref == 0) return DecodeError::BadGroup;
      const std::string* name = refs != nullptr ? refs->name_of(next.publisher, next.group_ref) : nullptr;
      if (name == nullptr) return DecodeError::UnknownGroupRef;
      next.group = *name;
    }
  }
  out.set_publisher(next.publisher);
  out.set_group(next.group);
  out.set_seq(next.seq);
  return std::nullopt;
}

}  // namespace

void encode_data(const DataFragment& m, const DataEncoding& e, std::vector<std::uint8_t>& out) {
  const Flags f = flags_of(m, e, m.payload().size());
  out.reserve(out.size() + data_frame_size(m, e));
  out.push_back(kDataPrefix);
  out.push_back(f.first);
  if (f.first & kMore) out.push_back(f.second);
  put_fixed(out, m.publisher(), 4);
  if (f.first & kNamed) {
    put_varint(out, m.group().size());
    put_bytes(out, m.group());
    put_varint(out, e.group_ref);
  } else {
    put_varint(out, e.group_ref);
  }
  put_varint(out, m.seq());
  encode_options(m, f, out);
  put_bytes(out, m.payload());
}

std::size_t data_frame_size(const DataFragment& m, const DataEncoding& e) {
  return data_frame_size(m, e, m.payload().size());
}

std::size_t data_frame_size(const DataFragment& m, const DataEncoding& e, std::size_t payload) {
  const Flags f = flags_of(m, e, payload);
  std::size_t n = 2 + ((f.first & kMore) ? 1 : 0) + 4;
  if (f.first & kNamed) n += varint_size(m.group().size()) + m.group().size();
  n += varint_size(e.group_ref) + varint_size(m.seq());
  return n + options_size(m, f) + payload;
}

std::optional<DecodeError> decode_data(std::span<const std::uint8_t> body, const GroupRefs* refs,
                                       DataContext* context, DataFragment& out, DataFrameInfo& info) {
  out.Clear();
  info = DataFrameInfo{};
  // Whatever goes wrong below, the next frame of the bundle cannot lean on this one.
  const DataContext previous = context != nullptr ? *context : DataContext{};
  if (context != nullptr) context->valid = false;
  Reader r(body);
  Flags f;
  f.first = r.byte();
  if (f.first & kMore) {
    f.second = r.byte();
    if (f.second == 0) return DecodeError::Unparseable;  // canonical: no empty second byte
  }
  if (!r.ok()) return DecodeError::Unparseable;
  if ((f.first & kPart) && !(f.first & kDigest)) return DecodeError::BadDigest;
  DataContext next;
  const auto err = decode_identity(r, f, refs, previous, next, out, info);
  if (context != nullptr) *context = next;  // invalid unless the identity was read
  if (err) return err;
  out.set_repair(f.first & kRepair);
  if (!decode_options(r, f, out)) return DecodeError::Unparseable;
  const auto payload = r.rest();
  out.set_payload(payload.data(), payload.size());
  if (!(f.first & kPart)) out.set_total_length(static_cast<std::uint32_t>(payload.size()));
  if (!(f.first & kDigest) && !payload.empty()) out.set_digest(message_digest(payload));
  return std::nullopt;
}

std::vector<std::uint8_t> compact_in_bundle(std::span<const std::uint8_t> frame, DataContext& context) {
  std::vector<std::uint8_t> unchanged(frame.begin(), frame.end());
  Reader r(frame);
  if (r.byte() != kDataPrefix) return unchanged;
  Flags f;
  f.first = r.byte();
  if (f.first & kMore) f.second = r.byte();
  if (!r.ok() || (f.first & kContext)) {
    context.valid = false;
    return unchanged;
  }
  const auto publisher = static_cast<std::uint32_t>(r.fixed(4));
  std::string name;
  if (f.first & kNamed) name = as_string(r.take(static_cast<std::size_t>(std::min<std::uint64_t>(r.varint(), SIZE_MAX))));
  const auto ref = static_cast<std::uint32_t>(r.varint());
  const std::uint64_t seq = r.varint();
  if (!r.ok()) {
    context.valid = false;
    return unchanged;
  }
  const bool same = context.valid && publisher == context.publisher && ref == context.group_ref &&
                    ((f.first & kNamed) ? name == context.group : ref != 0);
  const DataContext previous = context;
  context = DataContext{true, publisher, ref, (f.first & kNamed) ? name : (same ? previous.group : std::string{}), seq};
  if (!same) return unchanged;
  std::vector<std::uint8_t> out;
  out.reserve(frame.size());
  out.push_back(kDataPrefix);
  out.push_back(static_cast<std::uint8_t>((f.first & ~kNamed) | kContext));
  if (f.first & kMore) out.push_back(f.second);
  put_varint(out, zigzag(static_cast<std::int64_t>(seq - previous.seq)));
  const auto rest = frame.subspan(r.position());
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

}  // namespace dissem::wire
