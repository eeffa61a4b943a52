// The SQLite implementation of cache::Store.
//
// Speed comes from four choices:
//  * An in-memory mirror of every message (cache/store_mirror.h: id -> rowid,
//    flags, byte counts, held fragment offsets and lengths). A duplicate
//    fragment costs a hash lookup and no SQL; a new one costs exactly one
//    INSERT into `fragments` (plus one INSERT into `messages` on a message's
//    first fragment). total_bytes(), message_count(), contains(),
//    list_messages(), fragment_offsets() and the coverage check of
//    read_message() are answered from memory.
//  * Large messages (StoreOptions::payload_file_min_bytes) keep their payload
//    in a file of their own (cache/payload_files.h), written once; what they
//    hold is one small `file_spans` row per commit.
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
// Durability of payload files: each commit is preceded by the pwrite of what
// it records (a process crash loses nothing committed); with sync_full, by
// their fdatasync too (nor does a power loss). Without it, the files written
// since the last checkpoint are synced before the next one, so the database
// file never refers to bytes that are not on disk; a power loss may still
// leave the newest commits in the WAL with file bytes that did not reach the
// disk. At open, what a file is too short to hold is dropped from the index.
//
// Failure policy: any SQLite or file error rolls back the open transaction
// and re-reads the mirror from the file before the StoreError propagates.
// What was flushed is intact; what was written since the last flush is gone,
// as the durability contract allows.
//
// Not thread-safe: one Store belongs to one engine thread.
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

#include "cache/database_setup.h"
#include "cache/payload_files.h"
#include "cache/schema.h"
#include "cache/sqlite_handle.h"
#include "cache/store.h"
#include "cache/store_mirror.h"
#include "cache/store_statements.h"

namespace dissem::cache {
namespace {

constexpr const char* kMemoryPath = ":memory:";

// Span rows a file-backed message may collect before they are merged into
// one: bounds both the rows read at open and the cost of a merge.
constexpr std::uint32_t kMaxSpanChunks = 64;

class SqliteStore final : public Store {
 public:
  SqliteStore(std::unique_ptr<sql::Database> db, const StoreOptions& options, int checkpoint_pages)
      : db_(std::move(db)), options_(options), st_(*db_), checkpoint_pages_(checkpoint_pages) {
    if (db_->path() != kMemoryPath) {
      files_ = std::make_unique<PayloadFiles>(db_->path() + "-payload");
      // Replaces SQLite's automatic checkpoint with the same one, preceded
      // by syncing the payload files the checkpointed rows refer to.
      if (checkpoint_pages_ > 0) sqlite3_wal_hook(db_->get(), &SqliteStore::on_wal_commit, this);
    }
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
    if (files_ && checkpoint_pages_ > 0) {
      // The connection checkpoints as it closes: the files go first.
      sqlite3_wal_hook(db_->get(), nullptr, nullptr);
      try {
        files_->sync();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
      }
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

      if (e->in_file()) {
        files_->write(e->file, offset, payload);
        e->unsaved.emplace_back(offset, length);
      } else if (!insert_row(*e, offset, payload)) {
        return false;
      }
      e->add(offset, length);
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
      if (e->in_file())
        read_file_fragments(*e, *span, begin, end, out);
      else
        read_row_fragments(*e, *span, begin, end, out);
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
      if (covered_prefix(*e) < total) return std::nullopt;
      std::vector<std::uint8_t> out(total);
      // The file, not the mirror, has the last word: what is read must cover
      // the message too.
      if (e->in_file()) {
        if (files_->read(e->file, 0, out) < total) return std::nullopt;
        return out;
      }
      if (!read_row_message(*e, out)) return std::nullopt;
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
      auto& rows = e.in_file() ? st_.delete_spans : st_.delete_fragments;
      rows.bind(1, e.rowid);
      rows.run();
      st_.delete_message.bind(1, e.rowid);
      st_.delete_message.run();
      if (e.in_file()) files_->release(e.file);
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

  // Inserts a fragment row; false if the file already held it although the
  // mirror did not (its layout is then re-read when next needed).
  bool insert_row(Entry& e, std::uint32_t offset, std::span<const std::uint8_t> payload) {
    auto& s = st_.insert_fragment;
    s.bind(1, e.rowid);
    s.bind(2, std::int64_t{offset});
    s.bind_blob(3, payload);
    s.run();
    if (s.changes() != 0) return true;
    e.held_known = false;
    return false;
  }

  void read_row_fragments(const Entry& e, std::pair<std::uint32_t, std::uint32_t> span, std::uint32_t begin,
                          std::uint32_t end, std::vector<Fragment>& out) {
    auto& s = st_.select_fragments;
    sql::ResetOnExit reset(s);
    s.bind(1, e.rowid);
    s.bind(2, std::int64_t{span.first});
    s.bind(3, std::int64_t{span.second});
    while (s.step()) {
      const auto offset = static_cast<std::uint32_t>(s.column_int64(0));
      const auto data = s.column_blob(1);
      if (!overlaps(offset, data.size(), begin, end)) continue;
      out.push_back(Fragment{offset, std::vector<std::uint8_t>(data.begin(), data.end())});
    }
  }

  // One read of the bytes from the first to the end of the last fragment.
  void read_file_fragments(const Entry& e, std::pair<std::uint32_t, std::uint32_t> span, std::uint32_t begin,
                           std::uint32_t end, std::vector<Fragment>& out) {
    const std::uint64_t first = span.first;
    const std::uint64_t stop = std::uint64_t{span.second} + e.held.at(span.second);
    std::vector<std::uint8_t> bytes(stop - first);
    const std::size_t got = files_->read(e.file, first, bytes);
    for (auto it = e.held.find(span.first); it != e.held.end() && it->first <= span.second; ++it) {
      const std::uint64_t at = it->first - first;
      if (!overlaps(it->first, it->second, begin, end) || at + it->second > got) continue;
      out.push_back(Fragment{it->first, std::vector<std::uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                                                                  bytes.begin() + static_cast<std::ptrdiff_t>(at + it->second))});
    }
  }

  // Fills `out` from the fragment rows; false if they leave a gap.
  bool read_row_message(const Entry& e, std::vector<std::uint8_t>& out) {
    const std::uint64_t total = out.size();
    auto& s = st_.select_fragments;
    sql::ResetOnExit reset(s);
    s.bind(1, e.rowid);
    s.bind(2, std::int64_t{0});
    s.bind(3, std::int64_t{std::numeric_limits<std::uint32_t>::max()});
    std::uint64_t covered = 0;
    while (covered < total && s.step()) {
      const auto offset = static_cast<std::uint64_t>(s.column_int64(0));
      const auto data = s.column_blob(1);
      if (offset > covered) break;
      const std::uint64_t stop = std::min<std::uint64_t>(offset + data.size(), total);
      if (stop > offset) std::memcpy(out.data() + offset, data.data(), stop - offset);
      covered = std::max(covered, stop);
    }
    return covered >= total;
  }

  void commit() {
    if (!in_tx_) {
      if (dirty_.empty()) return;
      begin_if_needed();
    }
    if (files_) {
      files_->flush();
      if (options_.sync_full) files_->sync();
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
      if (e->in_file()) save_spans(*e);
    }
    st_.commit.run();
    if (files_) files_->committed();
    for (Entry* e : dirty_) e->dirty = false;
    dirty_.clear();
    in_tx_ = false;
    pending_ = 0;
    if (!sync_error_.empty()) {
      std::string error;
      error.swap(sync_error_);
      throw StoreError(error);
    }
  }

  // Records in `file_spans` what `e` gained since the last commit: one row,
  // or all of it in one row once it is complete or has too many.
  void save_spans(Entry& e) {
    FragmentList fragments;
    std::uint32_t chunk = e.chunks;
    if (e.respan || e.chunks >= kMaxSpanChunks || (e.complete && e.chunks > 1)) {
      st_.delete_spans.bind(1, e.rowid);
      st_.delete_spans.run();
      fragments.assign(e.held.begin(), e.held.end());
      chunk = 0;
    } else {
      fragments = std::move(e.unsaved);
    }
    e.unsaved.clear();
    e.respan = false;
    if (fragments.empty()) {
      e.chunks = chunk;
      return;
    }
    const auto runs = encode_spans(fragments);
    auto& s = st_.insert_spans;
    s.bind(1, e.rowid);
    s.bind(2, std::int64_t{chunk});
    s.bind_blob(3, runs);
    s.run();
    e.chunks = chunk + 1;
  }

  // SQLite's WAL hook, called after each commit: checkpoints once the WAL
  // holds checkpoint_pages_, after syncing the payload files.
  static int on_wal_commit(void* self, sqlite3* db, const char* name, int pages) {
    auto& store = *static_cast<SqliteStore*>(self);
    if (pages < store.checkpoint_pages_) return SQLITE_OK;
    try {
      store.files_->sync();
    } catch (const StoreError& e) {
      // No checkpoint: the database file must not refer to bytes that may
      // not be on disk. commit() reports it.
      store.sync_error_ = e.what();
      return SQLITE_OK;
    }
    sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    return SQLITE_OK;
  }

  void mark_dirty(Entry& e) {
    if (e.dirty) return;
    e.dirty = true;
    dirty_.push_back(&e);
  }

  Entry& create(const MessageMeta& meta, Micros now, bool own) {
    const bool in_file = files_ && options_.payload_file_min_bytes > 0 &&
                         meta.total_length >= options_.payload_file_min_bytes;
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
    const std::int64_t file = in_file ? files_->allocate() : 0;
    s.bind(17, file);
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
    e.file = file;
    return e;
  }

  // Reads the fragment layout of `e` from the file if it is not in memory,
  // and brings its byte count in line with it.
  void ensure_held(Entry& e) {
    if (e.held_known) return;
    Entry fresh;
    auto& s = e.in_file() ? st_.select_spans : st_.select_lengths;
    {
      sql::ResetOnExit reset(s);
      s.bind(1, e.rowid);
      while (s.step()) {
        if (e.in_file()) {
          for (const auto& [offset, length] : decode_spans(s.column_blob(0)))
            if (!fresh.held.contains(offset)) fresh.add(offset, length);
        } else {
          fresh.add(static_cast<std::uint32_t>(s.column_int64(0)), static_cast<std::uint32_t>(s.column_int64(1)));
        }
      }
    }
    e.held = std::move(fresh.held);
    e.max_fragment = fresh.max_fragment;
    e.held_known = true;
    if (fresh.stored_bytes != e.stored_bytes) {
      total_bytes_ = total_bytes_ - e.stored_bytes + fresh.stored_bytes;
      e.stored_bytes = fresh.stored_bytes;
      mark_dirty(e);
    }
  }

  std::vector<Entry*> by_rowid() {
    std::vector<Entry*> out;
    out.reserve(index_.size());
    for (auto& [id, e] : index_) out.push_back(&e);
    std::sort(out.begin(), out.end(), [](const Entry* a, const Entry* b) { return a->rowid < b->rowid; });
    return out;
  }

  // Builds the mirror from the file (cache/store_mirror.h).
  void load() {
    Mirror m = load_mirror(*db_, files_.get());
    index_ = std::move(m.index);
    total_bytes_ = m.total_bytes;
    // Their rows are rewritten by the next commit.
    for (const MessageId& id : m.damaged) mark_dirty(index_.at(id));
  }

  // After a failed call: drop the transaction and everything the mirror
  // learned since the last commit, then re-read the mirror from the file.
  void recover() noexcept {
    if (sqlite3_get_autocommit(db_->get()) == 0) sqlite3_exec(db_->get(), "ROLLBACK", nullptr, nullptr, nullptr);
    in_tx_ = false;
    pending_ = 0;
    for (Entry* e : dirty_) e->dirty = false;
    dirty_.clear();
    if (files_) files_->rolled_back();
    try {
      load();
    } catch (...) {
      // The caller gets the original error; if even reading the file fails
      // it is unusable, and the next call will report that again.
    }
  }

  std::unique_ptr<sql::Database> db_;
  StoreOptions options_;
  StoreStatements st_;  // after db_: finalized before the connection closes
  std::unique_ptr<PayloadFiles> files_;  // null in memory
  int checkpoint_pages_ = 0;
  std::string sync_error_;  // a payload sync that failed before a checkpoint
  MirrorIndex index_;
  std::vector<Entry*> dirty_;  // entries with dirty set, in no order
  std::uint64_t total_bytes_ = 0;
  bool in_tx_ = false;
  int pending_ = 0;  // fragments inserted in the open transaction
};

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
  const int checkpoint_pages = configure_database(*db, path == kMemoryPath, options);
  return std::make_unique<SqliteStore>(std::move(db), options, checkpoint_pages);
}

}  // namespace dissem::cache
