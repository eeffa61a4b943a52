// The SQLite implementation of cache::Store (see sqlite_store.cpp for how it
// is fast and what it promises). Private to src/cache: users open a Store.
//
// Its methods live in two files: sqlite_store.cpp (the Store interface and
// reads) and sqlite_store_commit.cpp (transactions, commits, the mirror's
// load and recovery).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cache/payload_files.h"
#include "cache/sqlite_handle.h"
#include "cache/store.h"
#include "cache/store_mirror.h"
#include "cache/store_statements.h"

namespace dissem::cache {

class SqliteStore final : public Store {
 public:
  SqliteStore(std::unique_ptr<sql::Database> db, const StoreOptions& options, int checkpoint_pages);
  ~SqliteStore() override;
  bool put_fragment(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                    Micros now, bool own) override;
  std::vector<Fragment> read_fragments(const MessageId& id, std::uint32_t begin, std::uint32_t end) override;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> fragment_offsets(const MessageId& id, std::uint32_t begin,
                                                                       std::uint32_t end) override;
  std::optional<std::vector<std::uint8_t>> read_message(const MessageId& id) override;

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

  std::vector<MessageRecord> load_index() override;
  std::vector<MessageRecord> list_messages() override;
  void erase(const MessageId& id) override;
  std::uint64_t total_bytes() const override { return total_bytes_; }

  std::uint64_t message_count() const override { return index_.size(); }

  const StoreOptions& options() const override { return options_; }

  std::optional<std::string> get_state(const std::string& key) override;
  void set_state(const std::string& key, const std::string& value) override;
  void erase_state(const std::string& key) override;
  std::vector<std::pair<std::string, std::string>> states_with_prefix(const std::string& prefix) override;

 private:
  // Runs `f`; on a StoreError restores a state that matches the file (the
  // failure policy in sqlite_store.cpp) and rethrows.
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

  void begin_if_needed();

  // Inserts a fragment row; false if the file already held it although the
  // mirror did not (its layout is then re-read when next needed).
  bool insert_row(Entry& e, std::uint32_t offset, std::span<const std::uint8_t> payload);
  void read_row_fragments(const Entry& e, std::pair<std::uint32_t, std::uint32_t> span, std::uint32_t begin,
                          std::uint32_t end, std::vector<Fragment>& out);

  // One read of the bytes from the first to the end of the last fragment.
  void read_file_fragments(const Entry& e, std::pair<std::uint32_t, std::uint32_t> span, std::uint32_t begin,
                           std::uint32_t end, std::vector<Fragment>& out);

  // Fills `out` from the fragment rows; false if they leave a gap.
  bool read_row_message(const Entry& e, std::vector<std::uint8_t>& out);
  // Commits the open transaction: the payload files' pending writes first,
  // then the aggregates (and span rows) of every entry changed since the last.
  void commit();

  // Records in `file_spans` what `e` gained since the last commit: one row,
  // or all of it in one row once it is complete or has too many.
  void save_spans(Entry& e);

  // SQLite's WAL hook, called after each commit: checkpoints once the WAL
  // holds checkpoint_pages_, after syncing the payload files.
  static int on_wal_commit(void* self, sqlite3* db, const char* name, int pages);

  void mark_dirty(Entry& e) {
    if (e.dirty) return;
    e.dirty = true;
    dirty_.push_back(&e);
  }

  Entry& create(const MessageMeta& meta, Micros now, bool own);

  // Reads the fragment layout of `e` from the file if it is not in memory,
  // and brings its byte count in line with it.
  void ensure_held(Entry& e);
  std::vector<Entry*> by_rowid();

  // Builds the mirror from the file (cache/store_mirror.h).
  void load();

  // After a failed call: drop the transaction and everything the mirror
  // learned since the last commit, then re-read the mirror from the file.
  void recover() noexcept;
  std::unique_ptr<sql::Database> db_;
  StoreOptions options_;
  StoreStatements st_;  // after db_: finalized before the connection closes

  std::unique_ptr<PayloadFiles> files_;  // null in memory

  int checkpoint_pages_ = 0;
  // The last close was not clean: complete file-backed messages are unverified.
  bool unclean_open_ = false;
  std::string sync_error_;  // a payload sync that failed before a checkpoint

  MirrorIndex index_;
  std::vector<Entry*> dirty_;  // entries with dirty set, in no order

  std::uint64_t total_bytes_ = 0;
  bool in_tx_ = false;
  int pending_ = 0;  // fragments inserted in the open transaction
};

}  // namespace dissem::cache
