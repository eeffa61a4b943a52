#include "cache/store_mirror.h"

#include <algorithm>
#include <unordered_set>

namespace dissem::cache {
namespace {

MessageMeta read_meta(const sql::Statement& s) {
  MessageMeta meta;
  meta.id.group = s.column_text(1);
  meta.id.publisher = static_cast<NodeId>(s.column_int64(2));
  meta.id.seq = static_cast<std::uint64_t>(s.column_int64(3));
  meta.total_length = static_cast<std::uint32_t>(s.column_int64(4));
  meta.priority = static_cast<std::uint32_t>(s.column_int64(5));
  meta.expiry_ms = static_cast<std::uint64_t>(s.column_int64(6));
  meta.history_window = static_cast<std::uint32_t>(s.column_int64(7));
  meta.tag = s.column_text(8);
  meta.digest = static_cast<std::uint64_t>(s.column_int64(14));
  const auto signature = s.column_blob(15);
  meta.signature.assign(signature.begin(), signature.end());
  meta.key_epoch = static_cast<std::uint32_t>(s.column_int64(16));
  const auto chain = s.column_blob(17);
  meta.chain.assign(chain.begin(), chain.end());
  const auto flags = s.column_int64(18);
  meta.replace = (flags & 1) != 0;
  meta.cancel = (flags & 2) != 0;
  meta.supersedes = unpack_u64(s.column_blob(19));
  return meta;
}

// Every message row. Layouts to be read are listed by rowid in `pending`.
void read_messages(sql::Database& db, MirrorIndex& index, std::unordered_map<std::int64_t, Entry*>& pending) {
  sql::Statement s(db,
                   "SELECT id, group_name, publisher, seq, total_length, priority, expiry_ms, history_window,"
                   " tag, complete, own, stored_bytes, first_seen_us, last_used_us, digest, signature, key_epoch,"
                   " chain, flags, supersedes, payload_file FROM messages");
  while (s.step()) {
    MessageMeta meta = read_meta(s);
    Entry& e = index[meta.id];
    e.rowid = s.column_int64(0);
    e.meta = std::move(meta);
    e.complete = s.column_int64(9) != 0;
    e.own = s.column_int64(10) != 0;
    e.stored_bytes = static_cast<std::uint64_t>(s.column_int64(11));
    e.first_seen = s.column_int64(12);
    e.last_used = s.column_int64(13);
    e.file = s.column_int64(20);
    e.held_known = !e.complete || e.in_file();
    if (e.held_known) {
      // Recounted from the layout below.
      e.stored_bytes = 0;
      pending.emplace(e.rowid, &e);
    }
  }
}

// The layout of the incomplete messages kept in rows.
void read_fragment_rows(sql::Database& db, const std::unordered_map<std::int64_t, Entry*>& pending) {
  // length(data) is answered from the record header: no blob is copied.
  sql::Statement s(db,
                   "SELECT f.id >> 32, f.id & 4294967295, length(f.data) FROM messages AS m"
                   " JOIN fragments AS f ON f.id BETWEEN (m.id << 32) AND (m.id << 32) | 4294967295"
                   " WHERE m.complete = 0 AND m.payload_file = 0 ORDER BY f.id");
  while (s.step()) {
    auto it = pending.find(s.column_int64(0));
    if (it == pending.end()) continue;
    it->second->add(static_cast<std::uint32_t>(s.column_int64(1)), static_cast<std::uint32_t>(s.column_int64(2)));
  }
}

// The layout of the file-backed messages, from their span rows.
void read_span_rows(sql::Database& db, const std::unordered_map<std::int64_t, Entry*>& pending) {
  sql::Statement s(db, "SELECT id >> 32, id & 4294967295, runs FROM file_spans ORDER BY id");
  while (s.step()) {
    auto it = pending.find(s.column_int64(0));
    if (it == pending.end() || !it->second->in_file()) continue;  // an orphan row: rewritten with its message
    Entry& e = *it->second;
    e.chunks = std::max(e.chunks, static_cast<std::uint32_t>(s.column_int64(1)) + 1);
    e.add_spans(s.column_blob(2));
  }
}

// Drops from `e` what its file does not hold; true if anything was dropped.
bool check_against_file(Entry& e, PayloadFiles& files) {
  const std::uint64_t size = files.size(e.file);
  bool dropped = false;
  for (auto it = e.held.begin(); it != e.held.end();) {
    if (std::uint64_t{it->first} + it->second <= size) {
      ++it;
      continue;
    }
    e.stored_bytes -= it->second;
    it = e.held.erase(it);
    dropped = true;
  }
  if (!dropped) return false;
  e.max_fragment = 0;
  for (const auto& [offset, length] : e.held) e.max_fragment = std::max(e.max_fragment, length);
  e.complete = false;
  e.respan = true;
  return true;
}

}  // namespace

std::vector<std::uint8_t> pack_u64(const std::vector<std::uint64_t>& values) {
  std::vector<std::uint8_t> out(values.size() * 8);
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t b = 0; b < 8; ++b) out[i * 8 + b] = static_cast<std::uint8_t>(values[i] >> (8 * b));
  return out;
}

std::vector<std::uint64_t> unpack_u64(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint64_t> out(bytes.size() / 8);
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t b = 0; b < 8; ++b) out[i] |= std::uint64_t{bytes[i * 8 + b]} << (8 * b);
  return out;
}

MessageRecord summary(const Entry& e) {
  MessageRecord r;
  r.meta = e.meta;
  r.complete = e.complete;
  r.own = e.own;
  r.stored_bytes = e.stored_bytes;
  r.first_seen = e.first_seen;
  r.last_used = e.last_used;
  r.unverified = e.unverified;
  return r;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> overlapping_span(const Entry& e, std::uint32_t begin,
                                                                       std::uint32_t end) {
  std::optional<std::pair<std::uint32_t, std::uint32_t>> span;
  for (auto it = e.held.lower_bound(search_start(e, begin)); it != e.held.end() && it->first < end; ++it) {
    if (!overlaps(it->first, it->second, begin, end)) continue;
    if (!span) span.emplace(it->first, it->first);
    span->second = it->first;
  }
  return span;
}

std::uint64_t covered_prefix(const Entry& e) {
  const std::uint64_t total = e.meta.total_length;
  std::uint64_t covered = 0;
  for (const auto& [offset, length] : e.held) {
    if (covered >= total || offset > covered) break;
    covered = std::max<std::uint64_t>(covered, std::uint64_t{offset} + length);
  }
  return std::min(covered, total);
}

Mirror load_mirror(sql::Database& db, PayloadFiles* files) {
  Mirror m;
  std::unordered_map<std::int64_t, Entry*> pending;
  read_messages(db, m.index, pending);
  if (!pending.empty()) {
    read_fragment_rows(db, pending);
    read_span_rows(db, pending);
  }
  std::unordered_set<std::int64_t> used;
  for (auto& [id, e] : m.index) {
    if (e.in_file()) {
      if (files == nullptr) throw StoreError("cache store '" + db.path() + "': payload files in a store without files");
      if (!used.insert(e.file).second)
        throw StoreError("cache store '" + db.path() + "': payload file " + std::to_string(e.file) +
                         " is named by two messages");
      if (check_against_file(e, *files)) m.damaged.push_back(id);
    }
    m.total_bytes += e.stored_bytes;
  }
  if (files != nullptr) files->adopt(used);
  return m;
}

}  // namespace dissem::cache
