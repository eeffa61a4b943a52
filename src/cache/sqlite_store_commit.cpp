// SqliteStore's transactions: writing rows and span lists, committing (payload
// files first), checkpoints, and reading the mirror back after a failure.
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>

#include "cache/schema.h"
#include "cache/sqlite_store.h"

namespace dissem::cache {
namespace {

// Span rows a file-backed message may collect before they are merged into
// one: bounds both the rows read at open and the cost of a merge.
constexpr std::uint32_t kMaxSpanChunks = 64;

}  // namespace

void SqliteStore::begin_if_needed() {
  if (in_tx_) return;
  st_.begin.run();
  in_tx_ = true;
}

bool SqliteStore::insert_row(Entry& e, std::uint32_t offset, std::span<const std::uint8_t> payload) {
  auto& s = st_.insert_fragment;
  s.bind(1, e.rowid);
  s.bind(2, std::int64_t{offset});
  s.bind_blob(3, payload);
  s.run();
  if (s.changes() != 0) return true;
  e.held_known = false;
  return false;
}

void SqliteStore::commit() {
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

void SqliteStore::save_spans(Entry& e) {
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

int SqliteStore::on_wal_commit(void* self, sqlite3* db, const char* name, int pages) {
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

Entry& SqliteStore::create(const MessageMeta& meta, Micros now, bool own) {
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

void SqliteStore::ensure_held(Entry& e) {
  if (e.held_known) return;
  Entry fresh;
  auto& s = e.in_file() ? st_.select_spans : st_.select_lengths;
  {
    sql::ResetOnExit reset(s);
    s.bind(1, e.rowid);
    while (s.step()) {
      if (e.in_file()) {
        fresh.add_spans(s.column_blob(0));
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

std::vector<Entry*> SqliteStore::by_rowid() {
  std::vector<Entry*> out;
  out.reserve(index_.size());
  for (auto& [id, e] : index_) out.push_back(&e);
  std::sort(out.begin(), out.end(), [](const Entry* a, const Entry* b) { return a->rowid < b->rowid; });
  return out;
}

void SqliteStore::load() {
  Mirror m = load_mirror(*db_, files_.get());
  index_ = std::move(m.index);
  total_bytes_ = m.total_bytes;
  // Their rows are rewritten by the next commit.
  for (const MessageId& id : m.damaged) mark_dirty(index_.at(id));
  if (unclean_open_)
    for (auto& [id, e] : index_) e.unverified = e.in_file() && e.complete;
}

void SqliteStore::recover() noexcept {
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

}  // namespace dissem::cache
