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
// disk. At open, what a file is too short to hold is dropped from the index,
// and if the store was not closed cleanly (node_state "cache.closed_cleanly")
// its complete file-backed messages come back marked unverified: the engine
// checks their digests before it trusts them.
//
// Failure policy: any SQLite or file error rolls back the open transaction
// and re-reads the mirror from the file before the StoreError propagates.
// What was flushed is intact; what was written since the last flush is gone,
// as the durability contract allows.
//
// Not thread-safe: one Store belongs to one engine thread.
#include "cache/sqlite_store.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

#include "cache/database_setup.h"

namespace dissem::cache {
namespace {

constexpr const char* kMemoryPath = ":memory:";
// node_state key: "1" once the store closed cleanly (payload files synced),
// "0" while it is open.
constexpr const char* kCleanKey = "cache.closed_cleanly";

}  // namespace

SqliteStore::SqliteStore(std::unique_ptr<sql::Database> db, const StoreOptions& options, int checkpoint_pages)
    : db_(std::move(db)), options_(options), st_(*db_), checkpoint_pages_(checkpoint_pages) {
  if (db_->path() != kMemoryPath) {
    files_ = std::make_unique<PayloadFiles>(db_->path() + "-payload");
    // Replaces SQLite's automatic checkpoint with the same one, preceded
    // by syncing the payload files the checkpointed rows refer to.
    if (checkpoint_pages_ > 0) sqlite3_wal_hook(db_->get(), &SqliteStore::on_wal_commit, this);
    // Closed cleanly last time? Until this store closes cleanly, the next
    // open will think not.
    unclean_open_ = get_state(kCleanKey).value_or("") != "1";
  }
  load();
  if (files_) {
    set_state(kCleanKey, "0");
    flush();
  }
}

// A clean shutdown loses nothing: whatever was written is committed here,
// then (payload files synced first) marked as closed cleanly.
SqliteStore::~SqliteStore() {
  try {
    commit();
    if (files_) {
      // The connection checkpoints as it closes: the files go first.
      sqlite3_wal_hook(db_->get(), nullptr, nullptr);
      files_->sync();
      set_state(kCleanKey, "1");
      commit();
    }
  } catch (const std::exception& e) {
    // A destructor cannot throw, and silently losing writes would hide a
    // full disk or a broken file from the operator.
    std::fprintf(stderr, "%s\n", e.what());
  }
}

bool SqliteStore::put_fragment(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                  Micros now, bool own) {
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

std::vector<Fragment> SqliteStore::read_fragments(const MessageId& id, std::uint32_t begin, std::uint32_t end) {
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

std::vector<std::pair<std::uint32_t, std::uint32_t>> SqliteStore::fragment_offsets(const MessageId& id, std::uint32_t begin,
                                                                     std::uint32_t end) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  Entry* e = find(id);
  if (e == nullptr || begin >= end) return out;
  guarded([&] { ensure_held(*e); });
  for (auto it = e->held.lower_bound(search_start(*e, begin)); it != e->held.end() && it->first < end; ++it)
    if (overlaps(it->first, it->second, begin, end)) out.emplace_back(it->first, it->second);
  return out;
}

std::optional<std::vector<std::uint8_t>> SqliteStore::read_message(const MessageId& id) {
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

std::vector<MessageRecord> SqliteStore::load_index() {
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

std::vector<MessageRecord> SqliteStore::list_messages() {
  std::vector<MessageRecord> out;
  const auto entries = by_rowid();
  out.reserve(entries.size());
  for (const Entry* e : entries) out.push_back(summary(*e));
  return out;
}

void SqliteStore::erase(const MessageId& id) {
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

std::optional<std::string> SqliteStore::get_state(const std::string& key) {
  return guarded([&]() -> std::optional<std::string> {
    auto& s = st_.get_state;
    sql::ResetOnExit reset(s);
    s.bind(1, key);
    if (!s.step()) return std::nullopt;
    return s.column_text(0);
  });
}

void SqliteStore::set_state(const std::string& key, const std::string& value) {
  guarded([&] {
    begin_if_needed();
    st_.set_state.bind(1, key);
    st_.set_state.bind(2, value);
    st_.set_state.run();
  });
}

void SqliteStore::erase_state(const std::string& key) {
  guarded([&] {
    begin_if_needed();
    st_.erase_state.bind(1, key);
    st_.erase_state.run();
  });
}

std::vector<std::pair<std::string, std::string>> SqliteStore::states_with_prefix(const std::string& prefix) {
  return guarded([&] {
    std::vector<std::pair<std::string, std::string>> out;
    auto& s = st_.states_with_prefix;
    sql::ResetOnExit reset(s);
    s.bind(1, prefix);
    while (s.step()) out.emplace_back(s.column_text(0), s.column_text(1));
    return out;
  });
}

void SqliteStore::read_row_fragments(const Entry& e, std::pair<std::uint32_t, std::uint32_t> span, std::uint32_t begin,
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

void SqliteStore::read_file_fragments(const Entry& e, std::pair<std::uint32_t, std::uint32_t> span, std::uint32_t begin,
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

bool SqliteStore::read_row_message(const Entry& e, std::vector<std::uint8_t>& out) {
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
