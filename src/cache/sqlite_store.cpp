// The SQLite implementation of cache::Store.
//
// Speed comes from three choices:
//  * An in-memory mirror of every message (id -> rowid, flags, byte counts,
//    held fragment offsets and lengths). A duplicate fragment costs a hash
//    lookup and no SQL; a new one costs exactly one INSERT into `fragments`
//    (plus one INSERT into `messages` on a message's first fragment).
//    total_bytes(), message_count(), contains(), list_messages(),
//    fragment_offsets() and the coverage check of read_message() are answered
//    from memory.
//  * Aggregate columns of `messages` (complete, own, stored_bytes,
//    last_used_us) are written once per commit for the messages changed since
//    the last one, inside the same transaction, so the file stays
//    self-consistent at every commit (see schema.h).
//  * Writes are batched in one transaction that is committed by flush() or
//    every StoreOptions::batch_fragments fragments.
//
// Files use WAL with locking_mode=EXCLUSIVE: the mirror is only correct if
// this connection is the file's only user, so a second Store (or process) on
// the same file is refused at open instead of silently diverging. Exclusive
// mode also keeps the WAL index in heap memory (no -shm file).
//
// Failure policy: any SQLite error rolls back the open transaction and
// re-reads the mirror from the file before the StoreError propagates. What
// was flushed is intact; what was written since the last flush is gone, as the
// durability contract allows.
//
// Not thread-safe: one Store belongs to one engine thread.
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

#include "cache/schema.h"
#include "cache/sqlite_handle.h"
#include "cache/store.h"

namespace dissem::cache {
namespace {

constexpr const char* kMemoryPath = ":memory:";

// Page size (StoreOptions::page_bytes, 16 KiB by default): fragments are
// ~1400 bytes. A 4 KiB page holds only two of them (a third
// of the page wasted); 16 KiB pages hold eleven, so the cache is ~5 % larger
// than its payload and an insert touches fewer pages. Measured with 1400-byte
// fragments: ~25 % faster and ~30 % less memory than 4 KiB for ":memory:",
// about twice as fast for WAL files. Takes effect only when the database is
// created.

// The WAL is checkpointed into the database once it holds an eighth of the
// quota, within [4, 64] MiB, and truncated back to that size afterwards
// (journal_size_limit), so the files stay close to the quota: the database
// reuses the pages eviction frees, and the WAL never keeps the size of its
// largest burst. A checkpoint copies each page once however often it was
// rewritten since the last one and costs two fsyncs: larger spacing is
// faster (64 MiB measured ~20 % more fragments/s than SQLite's 4 MiB), which
// large caches get. Crash recovery replays at most this much WAL.
constexpr std::uint64_t kWalMinBytes = 4ull << 20;
constexpr std::uint64_t kWalMaxBytes = 64ull << 20;

std::uint64_t wal_limit_bytes(std::uint64_t quota_bytes) {
  return std::clamp<std::uint64_t>(quota_bytes / 8, kWalMinBytes, kWalMaxBytes);
}

// Page cache of file databases. Recently received fragments are the ones
// asked for in repairs, so keeping the newest few MiB in memory saves reads.
constexpr int kCacheKiB = 16384;

struct Statements {
  explicit Statements(sql::Database& db)
      : begin(db, "BEGIN IMMEDIATE"),
        commit(db, "COMMIT"),
        insert_message(db,
                       "INSERT INTO messages (group_name, publisher, seq, total_length, priority, expiry_ms,"
                       " history_window, tag, complete, own, stored_bytes, first_seen_us, last_used_us, digest,"
                       " signature, key_epoch, chain, flags, supersedes)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, ?9, 0, ?10, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"),
        update_message(db,
                       "UPDATE messages SET complete = ?2, own = ?3, stored_bytes = ?4, last_used_us = ?5, digest = ?6"
                       " WHERE id = ?1"),
        // OR IGNORE: should the mirror ever miss a held fragment, the rowid
        // key (message << 32 | offset) still keeps the insert idempotent
        // (changes() tells).
        insert_fragment(db, "INSERT OR IGNORE INTO fragments (id, data) VALUES ((?1 << 32) | ?2, ?3)"),
        select_fragments(db,
                         "SELECT id & 4294967295, data FROM fragments WHERE id BETWEEN (?1 << 32) | ?2 AND (?1 << 32) | ?3"
                         " ORDER BY id"),
        select_lengths(db, "SELECT id & 4294967295, length(data) FROM fragments"
                       " WHERE id BETWEEN (?1 << 32) AND (?1 << 32) | 4294967295 ORDER BY id"),
        delete_fragments(db, "DELETE FROM fragments WHERE id BETWEEN (?1 << 32) AND (?1 << 32) | 4294967295"),
        delete_message(db, "DELETE FROM messages WHERE id = ?1"),
        get_state(db, "SELECT value FROM node_state WHERE key = ?1"),
        set_state(db,
                  "INSERT INTO node_state (key, value) VALUES (?1, ?2)"
                  " ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
        erase_state(db, "DELETE FROM node_state WHERE key = ?1"),
        // substr, not LIKE: keys are taken byte for byte, wildcards and all.
        states_with_prefix(db, "SELECT key, value FROM node_state WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key") {}

  sql::Statement begin;
  sql::Statement commit;
  sql::Statement insert_message;
  sql::Statement update_message;
  sql::Statement insert_fragment;
  sql::Statement select_fragments;
  sql::Statement select_lengths;
  sql::Statement delete_fragments;
  sql::Statement delete_message;
  sql::Statement get_state;
  sql::Statement set_state;
  sql::Statement erase_state;
  sql::Statement states_with_prefix;
};

// The mirror of one `messages` row plus its fragment layout.
struct Entry {
  std::int64_t rowid = 0;
  MessageMeta meta;
  bool complete = false;
  bool own = false;
  std::uint64_t stored_bytes = 0;
  Micros first_seen = 0;
  Micros last_used = 0;
  // Aggregates changed since the last commit (and listed in dirty_).
  bool dirty = false;
  // Complete messages found at open have their layout read on first use
  // only: reading it means touching every fragment row of the file, and most
  // of them are never asked for again.
  bool held_known = true;
  // Longest fragment held: bounds how far before `begin` an overlapping
  // fragment can start, so range lookups stay logarithmic.
  std::uint32_t max_fragment = 0;
  // offset -> length of every fragment held. A map (not a sorted vector)
  // keeps out-of-order repairs into messages of tens of thousands of
  // fragments at O(log n).
  std::map<std::uint32_t, std::uint32_t> held;
};

std::int64_t to_sql(std::uint64_t v) { return static_cast<std::int64_t>(v); }

// The supersedes column: each number as 8 bytes, little-endian.
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

bool overlaps(std::uint64_t offset, std::uint64_t length, std::uint64_t begin, std::uint64_t end) {
  return offset < end && offset + length > begin;
}

MessageRecord summary(const Entry& e) {
  MessageRecord r;
  r.meta = e.meta;
  r.complete = e.complete;
  r.own = e.own;
  r.stored_bytes = e.stored_bytes;
  r.first_seen = e.first_seen;
  r.last_used = e.last_used;
  return r;
}

class SqliteStore final : public Store {
 public:
  SqliteStore(std::unique_ptr<sql::Database> db, const StoreOptions& options)
      : db_(std::move(db)), options_(options), st_(*db_) {
    load();
  }

  // A clean shutdown loses nothing: whatever was written is committed here.
  ~SqliteStore() override {
    try {
      commit();
    } catch (const std::exception& e) {
      // A destructor cannot throw, and silently losing writes would hide a
      // full disk or a broken file from the operator.
      std::fprintf(stderr, "%s\n", e.what());
    }
  }

  bool put_fragment(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                    Micros now, bool own) override {
    if (payload.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw db_->error("fragment of " + std::to_string(payload.size()) + " bytes is too large");
    const auto length = static_cast<std::uint32_t>(payload.size());
    return guarded([&] {
      auto it = index_.find(meta.id);
      Entry* e = it == index_.end() ? nullptr : &it->second;
      if (e != nullptr) {
        ensure_held(*e);
        if (e->held.contains(offset)) return false;
      }
      begin_if_needed();
      if (e == nullptr) e = &create(meta, now, own);

      auto& s = st_.insert_fragment;
      s.bind(1, e->rowid);
      s.bind(2, std::int64_t{offset});
      s.bind_blob(3, payload);
      s.run();
      if (s.changes() == 0) {
        // The file held it although the mirror did not: re-read the layout
        // (and byte count) of this message when next needed.
        e->held_known = false;
        return false;
      }
      // Hint at the end: fragments mostly arrive in order.
      e->held.emplace_hint(e->held.end(), offset, length);
      e->max_fragment = std::max(e->max_fragment, length);
      e->stored_bytes += length;
      total_bytes_ += length;
      e->own = e->own || own;
      mark_dirty(*e);
      if (++pending_ >= options_.batch_fragments) commit();
      return true;
    });
  }

  std::vector<Fragment> read_fragments(const MessageId& id, std::uint32_t begin, std::uint32_t end) override {
    std::vector<Fragment> out;
    Entry* e = find(id);
    if (e == nullptr || begin >= end) return out;
    guarded([&] {
      ensure_held(*e);
      const auto span = overlapping_span(*e, begin, end);
      if (!span) return;
      auto& s = st_.select_fragments;
      sql::ResetOnExit reset(s);
      s.bind(1, e->rowid);
      s.bind(2, std::int64_t{span->first});
      s.bind(3, std::int64_t{span->second});
      while (s.step()) {
        const auto offset = static_cast<std::uint32_t>(s.column_int64(0));
        const auto data = s.column_blob(1);
        if (!overlaps(offset, data.size(), begin, end)) continue;
        out.push_back(Fragment{offset, std::vector<std::uint8_t>(data.begin(), data.end())});
      }
    });
    return out;
  }

  std::vector<std::pair<std::uint32_t, std::uint32_t>> fragment_offsets(const MessageId& id, std::uint32_t begin,
                                                                       std::uint32_t end) override {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    Entry* e = find(id);
    if (e == nullptr || begin >= end) return out;
    guarded([&] { ensure_held(*e); });
    for (auto it = e->held.lower_bound(search_start(*e, begin)); it != e->held.end() && it->first < end; ++it)
      if (overlaps(it->first, it->second, begin, end)) out.emplace_back(it->first, it->second);
    return out;
  }

  std::optional<std::vector<std::uint8_t>> read_message(const MessageId& id) override {
    Entry* e = find(id);
    if (e == nullptr) return std::nullopt;
    return guarded([&]() -> std::optional<std::vector<std::uint8_t>> {
      ensure_held(*e);
      const std::uint64_t total = e->meta.total_length;
      std::uint64_t covered = 0;
      for (const auto& [offset, length] : e->held) {
        if (covered >= total || offset > covered) break;
        covered = std::max<std::uint64_t>(covered, std::uint64_t{offset} + length);
      }
      if (covered < total) return std::nullopt;

      // The file, not the mirror, has the last word: coverage is checked
      // again on what is actually read.
      std::vector<std::uint8_t> out(total);
      auto& s = st_.select_fragments;
      sql::ResetOnExit reset(s);
      s.bind(1, e->rowid);
      s.bind(2, std::int64_t{0});
      s.bind(3, std::int64_t{std::numeric_limits<std::uint32_t>::max()});
      covered = 0;
      while (covered < total && s.step()) {
        const auto offset = static_cast<std::uint64_t>(s.column_int64(0));
        const auto data = s.column_blob(1);
        if (offset > covered) break;
        const std::uint64_t stop = std::min<std::uint64_t>(offset + data.size(), total);
        if (stop > offset) std::memcpy(out.data() + offset, data.data(), stop - offset);
        covered = std::max(covered, stop);
      }
      if (covered < total) return std::nullopt;
      return out;
    });
  }

  void set_digest(const MessageId& id, std::uint64_t digest) override {
    Entry* e = find(id);
    if (e == nullptr || e->meta.digest == digest) return;
    e->meta.digest = digest;
    mark_dirty(*e);
  }

  void mark_complete(const MessageId& id) override {
    Entry* e = find(id);
    if (e == nullptr || e->complete) return;
    e->complete = true;
    mark_dirty(*e);
  }

  void touch(const MessageId& id, Micros now) override {
    Entry* e = find(id);
    if (e == nullptr) return;
    e->last_used = now;
    mark_dirty(*e);
  }

  bool contains(const MessageId& id) override { return index_.contains(id); }

  void flush() override {
    guarded([&] { commit(); });
  }

  std::vector<MessageRecord> load_index() override {
    std::vector<MessageRecord> out;
    guarded([&] {
      const auto entries = by_rowid();
      out.reserve(entries.size());
      for (Entry* e : entries) {
        out.push_back(summary(*e));
        if (e->complete) continue;
        ensure_held(*e);
        out.back().fragments.assign(e->held.begin(), e->held.end());
      }
    });
    return out;
  }

  std::vector<MessageRecord> list_messages() override {
    std::vector<MessageRecord> out;
    const auto entries = by_rowid();
    out.reserve(entries.size());
    for (const Entry* e : entries) out.push_back(summary(*e));
    return out;
  }

  void erase(const MessageId& id) override {
    auto it = index_.find(id);
    if (it == index_.end()) return;
    Entry& e = it->second;
    guarded([&] {
      begin_if_needed();
      st_.delete_fragments.bind(1, e.rowid);
      st_.delete_fragments.run();
      st_.delete_message.bind(1, e.rowid);
      st_.delete_message.run();
    });
    total_bytes_ -= e.stored_bytes;
    if (e.dirty) dirty_.erase(std::find(dirty_.begin(), dirty_.end(), &e));
    index_.erase(it);
  }

  std::uint64_t total_bytes() const override { return total_bytes_; }
  std::uint64_t message_count() const override { return index_.size(); }
  const StoreOptions& options() const override { return options_; }

  std::optional<std::string> get_state(const std::string& key) override {
    return guarded([&]() -> std::optional<std::string> {
      auto& s = st_.get_state;
      sql::ResetOnExit reset(s);
      s.bind(1, key);
      if (!s.step()) return std::nullopt;
      return s.column_text(0);
    });
  }

  void set_state(const std::string& key, const std::string& value) override {
    guarded([&] {
      begin_if_needed();
      st_.set_state.bind(1, key);
      st_.set_state.bind(2, value);
      st_.set_state.run();
    });
  }

  void erase_state(const std::string& key) override {
    guarded([&] {
      begin_if_needed();
      st_.erase_state.bind(1, key);
      st_.erase_state.run();
    });
  }

  std::vector<std::pair<std::string, std::string>> states_with_prefix(const std::string& prefix) override {
    return guarded([&] {
      std::vector<std::pair<std::string, std::string>> out;
      auto& s = st_.states_with_prefix;
      sql::ResetOnExit reset(s);
      s.bind(1, prefix);
      while (s.step()) out.emplace_back(s.column_text(0), s.column_text(1));
      return out;
    });
  }

 private:
  // Runs `f`; on a StoreError restores a state that matches the file (see the
  // failure policy above) and rethrows.
  template <typename F>
  auto guarded(F&& f) -> decltype(f()) {
    try {
      return f();
    } catch (const StoreError&) {
      recover();
      throw;
    }
  }

  Entry* find(const MessageId& id) {
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : &it->second;
  }

  void begin_if_needed() {
    if (in_tx_) return;
    st_.begin.run();
    in_tx_ = true;
  }

  void commit() {
    if (!in_tx_) {
      if (dirty_.empty()) return;
      begin_if_needed();
    }
    auto& s = st_.update_message;
    for (Entry* e : dirty_) {
      s.bind(1, e->rowid);
      s.bind(2, std::int64_t{e->complete});
      s.bind(3, std::int64_t{e->own});
      s.bind(4, to_sql(e->stored_bytes));
      s.bind(5, e->last_used);
      s.bind(6, to_sql(e->meta.digest));
      s.run();
    }
    st_.commit.run();
    for (Entry* e : dirty_) e->dirty = false;
    dirty_.clear();
    in_tx_ = false;
    pending_ = 0;
  }

  void mark_dirty(Entry& e) {
    if (e.dirty) return;
    e.dirty = true;
    dirty_.push_back(&e);
  }

  Entry& create(const MessageMeta& meta, Micros now, bool own) {
    auto& s = st_.insert_message;
    s.bind(1, meta.id.group);
    s.bind(2, std::int64_t{meta.id.publisher});
    s.bind(3, to_sql(meta.id.seq));
    s.bind(4, std::int64_t{meta.total_length});
    s.bind(5, std::int64_t{meta.priority});
    s.bind(6, to_sql(meta.expiry_ms));
    s.bind(7, std::int64_t{meta.history_window});
    s.bind(8, meta.tag);
    s.bind(9, std::int64_t{own});
    s.bind(10, now);
    s.bind(11, to_sql(meta.digest));
    s.bind_blob(12, std::span(reinterpret_cast<const std::uint8_t*>(meta.signature.data()), meta.signature.size()));
    s.bind(13, std::int64_t{meta.key_epoch});
    s.bind_blob(14, std::span(reinterpret_cast<const std::uint8_t*>(meta.chain.data()), meta.chain.size()));
    s.bind(15, std::int64_t{(meta.replace ? 1 : 0) | (meta.cancel ? 2 : 0)});
    const auto superseded = pack_u64(meta.supersedes);
    s.bind_blob(16, superseded);
    s.run();
    const std::int64_t rowid = sqlite3_last_insert_rowid(db_->get());
    if (rowid > schema::kMaxMessageRowid)
      throw StoreError("cache store '" + db_->path() + "': message rowid " + std::to_string(rowid) +
                       " exceeds the fragment key range; vacuum or recreate the cache");
    Entry& e = index_[meta.id];
    e.rowid = rowid;
    e.meta = meta;
    e.own = own;
    e.first_seen = now;
    e.last_used = now;
    return e;
  }

  // Reads the fragment layout of `e` from the file if it is not in memory,
  // and brings its byte count in line with it.
  void ensure_held(Entry& e) {
    if (e.held_known) return;
    std::map<std::uint32_t, std::uint32_t> held;
    std::uint32_t max_fragment = 0;
    std::uint64_t bytes = 0;
    auto& s = st_.select_lengths;
    {
      sql::ResetOnExit reset(s);
      s.bind(1, e.rowid);
      while (s.step()) {
        const auto length = static_cast<std::uint32_t>(s.column_int64(1));
        held.emplace_hint(held.end(), static_cast<std::uint32_t>(s.column_int64(0)), length);
        max_fragment = std::max(max_fragment, length);
        bytes += length;
      }
    }
    e.held = std::move(held);
    e.max_fragment = max_fragment;
    e.held_known = true;
    if (bytes != e.stored_bytes) {
      total_bytes_ = total_bytes_ - e.stored_bytes + bytes;
      e.stored_bytes = bytes;
      mark_dirty(e);
    }
  }

  // Smallest start offset a fragment overlapping [begin, ...) can have.
  static std::uint32_t search_start(const Entry& e, std::uint32_t begin) {
    return e.max_fragment == 0 || begin < e.max_fragment ? 0 : begin - e.max_fragment + 1;
  }

  // First and last start offsets of the held fragments overlapping [begin, end).
  static std::optional<std::pair<std::uint32_t, std::uint32_t>> overlapping_span(const Entry& e, std::uint32_t begin,
                                                                                std::uint32_t end) {
    std::optional<std::pair<std::uint32_t, std::uint32_t>> span;
    for (auto it = e.held.lower_bound(search_start(e, begin)); it != e.held.end() && it->first < end; ++it) {
      if (!overlaps(it->first, it->second, begin, end)) continue;
      if (!span) span.emplace(it->first, it->first);
      span->second = it->first;
    }
    return span;
  }

  std::vector<Entry*> by_rowid() {
    std::vector<Entry*> out;
    out.reserve(index_.size());
    for (auto& [id, e] : index_) out.push_back(&e);
    std::sort(out.begin(), out.end(), [](const Entry* a, const Entry* b) { return a->rowid < b->rowid; });
    return out;
  }

  // Builds the mirror from the file: every message row, and the layout of the
  // incomplete ones (their restart needs it; complete ones load lazily).
  void load() {
    std::unordered_map<MessageId, Entry, MessageIdHash> index;
    std::unordered_map<std::int64_t, Entry*> incomplete;
    {
      sql::Statement s(*db_,
                       "SELECT id, group_name, publisher, seq, total_length, priority, expiry_ms, history_window,"
                       " tag, complete, own, stored_bytes, first_seen_us, last_used_us, digest, signature, key_epoch,"
                       " chain, flags, supersedes FROM messages");
      while (s.step()) {
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
        Entry& e = index[meta.id];
        e.rowid = s.column_int64(0);
        e.meta = std::move(meta);
        e.complete = s.column_int64(9) != 0;
        e.own = s.column_int64(10) != 0;
        e.stored_bytes = static_cast<std::uint64_t>(s.column_int64(11));
        e.first_seen = s.column_int64(12);
        e.last_used = s.column_int64(13);
        e.held_known = !e.complete;
        if (!e.complete) {
          // Recounted from the fragments below.
          e.stored_bytes = 0;
          incomplete.emplace(e.rowid, &e);
        }
      }
    }
    if (!incomplete.empty()) {
      // length(data) is answered from the record header: no blob is copied.
      sql::Statement s(*db_,
                       "SELECT f.id >> 32, f.id & 4294967295, length(f.data) FROM messages AS m"
                       " JOIN fragments AS f ON f.id BETWEEN (m.id << 32) AND (m.id << 32) | 4294967295"
                       " WHERE m.complete = 0 ORDER BY f.id");
      while (s.step()) {
        auto it = incomplete.find(s.column_int64(0));
        if (it == incomplete.end()) continue;
        Entry& e = *it->second;
        const auto length = static_cast<std::uint32_t>(s.column_int64(2));
        e.held.emplace_hint(e.held.end(), static_cast<std::uint32_t>(s.column_int64(1)), length);
        e.max_fragment = std::max(e.max_fragment, length);
        e.stored_bytes += length;
      }
    }
    std::uint64_t total = 0;
    for (const auto& [id, e] : index) total += e.stored_bytes;

    index_ = std::move(index);
    total_bytes_ = total;
  }

  // After a failed SQL call: drop the transaction and everything the mirror
  // learned since the last commit, then re-read the mirror from the file.
  void recover() noexcept {
    if (sqlite3_get_autocommit(db_->get()) == 0) sqlite3_exec(db_->get(), "ROLLBACK", nullptr, nullptr, nullptr);
    in_tx_ = false;
    pending_ = 0;
    for (Entry* e : dirty_) e->dirty = false;
    dirty_.clear();
    try {
      load();
    } catch (...) {
      // The caller gets the original error; if even reading the file fails
      // it is unusable, and the next call will report that again.
    }
  }

  std::unique_ptr<sql::Database> db_;
  StoreOptions options_;
  Statements st_;  // after db_: finalized before the connection closes
  std::unordered_map<MessageId, Entry, MessageIdHash> index_;
  std::vector<Entry*> dirty_;  // entries with dirty set, in no order
  std::uint64_t total_bytes_ = 0;
  bool in_tx_ = false;
  int pending_ = 0;  // fragments inserted in the open transaction
};

// Runs `sql` and sets the current schema version in one transaction.
void install_schema(sql::Database& db, const char* sql) {
  db.exec("BEGIN IMMEDIATE");
  try {
    db.exec(sql);
    db.exec(("PRAGMA user_version = " + std::to_string(schema::kVersion)).c_str());
    db.exec("COMMIT");
  } catch (const StoreError&) {
    sqlite3_exec(db.get(), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void configure(sql::Database& db, bool in_memory, const StoreOptions& options) {
  if (sqlite3_db_readonly(db.get(), "main") == 1)
    throw db.error("opened read-only: the file or its directory is not writable");
  // Before anything is written: the page size is fixed when the database is
  // first written (for files, by the switch to WAL below).
  db.exec(("PRAGMA page_size = " + std::to_string(options.page_bytes)).c_str());
  if (!in_memory) {
    // The WAL index lives in heap memory only if the connection is exclusive
    // when it enters WAL mode.
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    std::string mode;
    try {
      mode = db.query_text("PRAGMA journal_mode = WAL");
    } catch (const StoreError&) {
      if ((sqlite3_extended_errcode(db.get()) & 0xff) == SQLITE_BUSY)
        throw db.error("in use by another Store or process", SQLITE_BUSY);
      throw;
    }
    if (mode != "wal") throw db.error("cannot use WAL journal mode (got '" + mode + "')");
    db.exec(("PRAGMA cache_size = -" + std::to_string(kCacheKiB)).c_str());
    const std::uint64_t wal = wal_limit_bytes(options.quota_bytes);
    // In pages of this file (its page size was fixed when it was created).
    const std::uint64_t page = std::stoull(db.query_text("PRAGMA page_size"));
    db.exec(("PRAGMA wal_autocheckpoint = " + std::to_string(wal / page)).c_str());
    db.exec(("PRAGMA journal_size_limit = " + std::to_string(wal)).c_str());
  }
  // NORMAL with WAL: a commit is a write() into the WAL, which survives a
  // process crash; FULL also fsyncs it, which survives a power loss.
  db.exec(options.sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");

  const int version = std::stoi(db.query_text("PRAGMA user_version"));
  if (version > schema::kVersion)
    throw db.error("schema version " + std::to_string(version) + " is newer than this build supports (" +
                   std::to_string(schema::kVersion) + ")");
  if (version == schema::kVersion) return;
  if (version >= 2 && version <= 5) {
    // Version 2 had no digests: the column starts empty, and the engine
    // computes the digests of complete messages when it restores them.
    // Versions before 4 had no signatures: their messages are open-group
    // ones. Version 4's signed manifests had no chain link (an empty link
    // keeps the manifest layout they were signed under). Version 5 counted
    // expiry in seconds and knew no supersession.
    std::string upgrade;
    if (version == 2) upgrade += std::string(schema::kUpgradeFrom2) + ";";
    if (version <= 3) upgrade += std::string(schema::kUpgradeFrom3) + ";";
    if (version <= 4) upgrade += std::string(schema::kUpgradeFrom4) + ";";
    upgrade += schema::kUpgradeFrom5;
    install_schema(db, upgrade.c_str());
    return;
  }
  if (version != 0)
    throw db.error("schema version " + std::to_string(version) + " is not supported (expected " +
                   std::to_string(schema::kVersion) + ")");
  if (db.query_text("SELECT count(*) FROM sqlite_schema") != "0")
    throw db.error("not a dissem cache: it has tables but no schema version");
  install_schema(db, schema::kCreate);
}

}  // namespace

std::unique_ptr<Store> Store::open(const std::string& path, const StoreOptions& options) {
  if (path.empty()) throw StoreError("cache store '': empty path (use \":memory:\" for an in-memory cache)");
  if (options.batch_fragments < 1)
    throw StoreError("cache store '" + path + "': batch_fragments must be at least 1, not " +
                     std::to_string(options.batch_fragments));
  if (options.page_bytes < 512 || options.page_bytes > 65536 || (options.page_bytes & (options.page_bytes - 1)) != 0)
    throw StoreError("cache store '" + path + "': page_bytes must be a power of two in [512, 65536], not " +
                     std::to_string(options.page_bytes));
  // NOMUTEX: a Store is used by one thread, so SQLite's own locking is waste.
  auto db = std::make_unique<sql::Database>(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX);
  configure(*db, path == kMemoryPath, options);
  return std::make_unique<SqliteStore>(std::move(db), options);
}

}  // namespace dissem::cache
