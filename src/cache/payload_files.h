// The payload of large cached messages, one sparse file per message, beside
// the SQLite database that indexes them (`<database>-payload/<message rowid>`).
//
// SQLite writes every byte it stores twice (into the WAL, then into the
// database at a checkpoint, which also reads it back). A fragment of a large
// message is instead written once, at its offset, into the message's file;
// the database keeps only which fragments are held (cache/fragment_spans.h).
//
// Files are numbered, and a message's row names its file (reused after an
// erase: see allocate()).
//
// Writes are buffered: a fragment that continues the previous one of the same
// file is appended to that file's pending run, and runs go out with one
// pwrite each at flush(), which the Store calls before every COMMIT that
// records them. So a burst of in-order fragments costs one system call, and
// what a commit records has reached the page cache (it survives a process
// crash). sync() adds fdatasync for each file written since the last sync:
// the Store calls it before each commit when the cache is to survive power
// loss, and before each WAL checkpoint otherwise.
//
// Errors (a full disk, a missing directory) throw StoreError naming the file.
// Not thread-safe: one PayloadFiles belongs to one Store.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cache/store.h"

namespace dissem::cache {

class PayloadFiles {
 public:
  // Uses the directory `dir`, created (mode 0700) with the first file.
  explicit PayloadFiles(std::filesystem::path dir);
  ~PayloadFiles();
  PayloadFiles(const PayloadFiles&) = delete;
  PayloadFiles& operator=(const PayloadFiles&) = delete;

  const std::filesystem::path& dir() const { return dir_; }

  // --- which file holds which message ---------------------------------------
  // Files are numbered (names "1", "2", ...); a message's row records its
  // file's number. A file whose message is erased is emptied and reused for
  // a later message instead of being deleted: creating a file costs ext4 a
  // new inode, which takes up to half a millisecond where many files were
  // deleted recently, against a few microseconds to reuse one.

  // After the rows are read: `used` are the numbers they refer to. Every
  // other numbered file is left over from a transaction that never
  // committed, or from an erased message: it is emptied and kept for reuse
  // (up to kMaxSpares), or deleted.
  void adopt(const std::unordered_set<std::int64_t>& used);
  // A file for a new message: an empty spare, or a number never used.
  std::int64_t allocate();
  // Its message was erased in the open transaction. Its bytes stay until
  // committed(): should the transaction roll back, the message is back.
  void release(std::int64_t file);
  // The transaction committed: released files become spares.
  void committed();
  // The transaction rolled back: pending writes and releases are dropped
  // (adopt() runs again with what the rows say).
  void rolled_back();

  // --- bytes ------------------------------------------------------------------
  // Stores `data` at `offset` of `file` (buffered until flush()).
  void write(std::int64_t file, std::uint32_t offset, std::span<const std::uint8_t> data);
  // Reads up to out.size() bytes at `offset` of `file` (its pending writes
  // first): the count read, short where the file ends; 0 if it does not exist.
  std::size_t read(std::int64_t file, std::uint64_t offset, std::span<std::uint8_t> out);
  // Size of `file` in bytes, after its pending writes; 0 if it does not exist.
  std::uint64_t size(std::int64_t file);
  // Writes every pending run.
  void flush();
  // fdatasync of every file written since the last sync (after flush()).
  void sync();

  // Pending bytes after which write() flushes by itself.
  static constexpr std::size_t kMaxPendingBytes = 4u << 20;
  // Empty files kept for reuse.
  static constexpr std::size_t kMaxSpares = 64;

 private:
  struct Run {
    std::uint64_t offset = 0;
    std::vector<std::uint8_t> bytes;
  };
  struct OpenFile {
    int fd = -1;
    std::uint64_t last_use = 0;
  };

  std::filesystem::path path_of(std::int64_t file) const;
  // A descriptor for `file`, opened (and created if `create`) on demand; -1
  // if it does not exist and `create` is false.
  int fd_of(std::int64_t file, bool create);
  void flush_one(std::int64_t file, Run& run);
  void close_one(std::int64_t file);
  // Empties `file` into the spares, or deletes it if there are enough.
  void retire(std::int64_t file);
  // Numbers of the files present in the directory.
  std::vector<std::int64_t> list() const;
  [[noreturn]] void fail(const std::string& what, std::int64_t file, int err) const;

  std::filesystem::path dir_;
  std::unordered_map<std::int64_t, Run> pending_;
  std::size_t pending_bytes_ = 0;
  std::unordered_map<std::int64_t, OpenFile> open_;
  std::uint64_t uses_ = 0;
  std::unordered_set<std::int64_t> unsynced_;
  std::vector<std::int64_t> spares_;
  std::vector<std::int64_t> released_;
  std::int64_t next_ = 1;  // above every number in use or on disk
};

}  // namespace dissem::cache
