#include "engine/subscribers/durable_subscriptions.h"

#include <fmt/format.h>

namespace dissem::engine {
namespace {

constexpr std::string_view kRecordPrefix = "durable/";
constexpr std::string_view kCursorPrefix = "cursor/";

std::string hex(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

std::optional<std::string> unhex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    unsigned v = 0;
    for (std::size_t k = 0; k < 2; ++k) {
      const char c = text[i + k];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + static_cast<unsigned>(d);
    }
    out += static_cast<char>(v);
  }
  return out;
}

// Little-endian integers and length-prefixed strings.
class Writer {
 public:
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_ += static_cast<char>(v >> (8 * i));
  }
  void str(const std::string& s) {
    u64(s.size());
    out_ += s;
  }
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  std::optional<std::uint64_t> u64() {
    if (in_.size() - at_ < 8) return std::nullopt;
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(in_[at_++])} << (8 * i);
    return v;
  }
  std::optional<std::string> str() {
    const auto n = u64();
    if (!n || *n > in_.size() - at_) return std::nullopt;
    std::string s(in_.substr(at_, *n));
    at_ += *n;
    return s;
  }
  bool done() const { return at_ == in_.size(); }

 private:
  std::string_view in_;
  std::size_t at_ = 0;
};

std::string record_key(const std::string& name) { return std::string(kRecordPrefix) + hex(name); }
std::string cursor_prefix(const std::string& name) { return std::string(kCursorPrefix) + hex(name) + "/"; }
std::string cursor_key(const std::string& name, NodeId publisher) {
  return cursor_prefix(name) + fmt::format("{:08x}", publisher);
}

std::string encode_ranges(const SeqRanges& r) {
  Writer w;
  for (const auto& [begin, end] : r.ranges()) {
    w.u64(begin);
    w.u64(end);
  }
  return hex(w.bytes());
}

}  // namespace

std::string DurableSubscriptions::encode_options(const std::string& group, const SubscriptionOptions& o) {
  Writer w;
  w.str(group);
  w.u64((o.reliable ? 1u : 0u) | (o.ordered ? 2u : 0u) | (o.use_publisher_history ? 4u : 0u) |
        (o.silent ? 8u : 0u));
  w.u64(o.history);
  w.u64(o.min_priority);
  w.u64(o.tags.size());
  for (const auto& t : o.tags) w.str(t);
  return hex(w.bytes());
}

std::optional<std::pair<std::string, SubscriptionOptions>> DurableSubscriptions::decode_options(const std::string& text) {
  const auto bytes = unhex(text);
  if (!bytes) return std::nullopt;
  Reader r(*bytes);
  auto group = r.str();
  const auto flags = r.u64();
  const auto history = r.u64();
  const auto min_priority = r.u64();
  const auto tags = r.u64();
  if (!group || !flags || !history || !min_priority || !tags || *tags > 4096) return std::nullopt;
  SubscriptionOptions o;
  o.reliable = (*flags & 1) != 0;
  o.ordered = (*flags & 2) != 0;
  o.use_publisher_history = (*flags & 4) != 0;
  o.silent = (*flags & 8) != 0;
  o.history = static_cast<std::uint32_t>(*history);
  o.min_priority = static_cast<std::uint32_t>(*min_priority);
  for (std::uint64_t i = 0; i < *tags; ++i) {
    auto t = r.str();
    if (!t) return std::nullopt;
    o.tags.push_back(std::move(*t));
  }
  if (!r.done()) return std::nullopt;
  return std::pair{std::move(*group), std::move(o)};
}

void DurableSubscriptions::load(cache::Store& store) {
  subs_.clear();
  for (const auto& [key, value] : store.states_with_prefix(std::string(kRecordPrefix))) {
    const auto name = unhex(std::string_view(key).substr(kRecordPrefix.size()));
    auto decoded = decode_options(value);
    if (!name || !decoded) continue;  // not ours to guess at: left as it is
    DurableSubscription d;
    d.group = std::move(decoded->first);
    d.options = std::move(decoded->second);
    d.options.name = *name;
    for (const auto& [ckey, cvalue] : store.states_with_prefix(cursor_prefix(*name))) {
      const auto publisher_bytes = unhex(std::string_view(ckey).substr(cursor_prefix(*name).size()));
      const auto ranges = unhex(cvalue);
      if (!publisher_bytes || publisher_bytes->size() != 4 || !ranges) continue;
      NodeId publisher = 0;
      for (const unsigned char c : *publisher_bytes) publisher = publisher << 8 | c;
      Reader r(*ranges);
      SeqRanges& acked = d.acked[publisher];
      while (!r.done()) {
        const auto begin = r.u64();
        const auto end = r.u64();
        if (!begin || !end || *begin >= *end) break;
        acked.add(*begin, *end);
      }
    }
    subs_.emplace(*name, std::move(d));
  }
}

DurableSubscription* DurableSubscriptions::find(const std::string& name) {
  auto it = subs_.find(name);
  return it == subs_.end() ? nullptr : &it->second;
}

DurableSubscription* DurableSubscriptions::by_id(SubscriptionId id) {
  for (auto& [name, d] : subs_)
    if (d.id == id) return &d;
  return nullptr;
}

DurableSubscription& DurableSubscriptions::create(const std::string& group, const SubscriptionOptions& options,
                                                  cache::Store& store) {
  DurableSubscription& d = subs_[options.name];
  d.group = group;
  d.options = options;
  store.set_state(record_key(options.name), encode_options(group, options));
  return d;
}

void DurableSubscriptions::update(DurableSubscription& d, const SubscriptionOptions& options, cache::Store& store) {
  d.options = options;
  store.set_state(record_key(options.name), encode_options(d.group, options));
}

bool DurableSubscriptions::acknowledge(DurableSubscription& d, const MessageId& message, cache::Store& store) {
  SeqRanges& acked = d.acked[message.publisher];
  if (acked.add(message.seq, message.seq + 1) == 0) return false;
  store.set_state(cursor_key(d.options.name, message.publisher), encode_ranges(acked));
  return true;
}

bool DurableSubscriptions::acknowledged(const DurableSubscription& d, const MessageId& message) const {
  auto it = d.acked.find(message.publisher);
  return it != d.acked.end() && it->second.contains(message.seq);
}

bool DurableSubscriptions::erase(const std::string& name, cache::Store& store) {
  auto it = subs_.find(name);
  if (it == subs_.end()) return false;
  for (const auto& [key, value] : store.states_with_prefix(cursor_prefix(name))) store.erase_state(key);
  store.erase_state(record_key(name));
  subs_.erase(it);
  return true;
}

}  // namespace dissem::engine
