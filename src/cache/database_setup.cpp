#include "cache/database_setup.h"

#include <algorithm>
#include <string>

#include "cache/schema.h"

namespace dissem::cache {
namespace {

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

// Creates the schema on a fresh file or upgrades an older one.
void install_or_upgrade(sql::Database& db) {
  const int version = std::stoi(db.query_text("PRAGMA user_version"));
  if (version > schema::kVersion)
    throw db.error("schema version " + std::to_string(version) + " is newer than this build supports (" +
                   std::to_string(schema::kVersion) + ")");
  if (version == schema::kVersion) return;
  if (version >= 2 && version <= 6) {
    // Version 2 had no digests: the column starts empty, and the engine
    // computes the digests of complete messages when it restores them.
    // Versions before 4 had no signatures: their messages are open-group
    // ones. Version 4's signed manifests had no chain link (an empty link
    // keeps the manifest layout they were signed under). Version 5 counted
    // expiry in seconds and knew no supersession. Version 6 kept every
    // payload in rows.
    std::string upgrade;
    if (version == 2) upgrade += std::string(schema::kUpgradeFrom2) + ";";
    if (version <= 3) upgrade += std::string(schema::kUpgradeFrom3) + ";";
    if (version <= 4) upgrade += std::string(schema::kUpgradeFrom4) + ";";
    if (version <= 5) upgrade += std::string(schema::kUpgradeFrom5) + ";";
    upgrade += schema::kUpgradeFrom6;
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

int configure_database(sql::Database& db, bool in_memory, const StoreOptions& options) {
  if (sqlite3_db_readonly(db.get(), "main") == 1)
    throw db.error("opened read-only: the file or its directory is not writable");
  // Before anything is written: the page size is fixed when the database is
  // first written (for files, by the switch to WAL below).
  db.exec(("PRAGMA page_size = " + std::to_string(options.page_bytes)).c_str());
  int checkpoint_pages = 0;
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
    checkpoint_pages = static_cast<int>(wal / page);
    db.exec(("PRAGMA wal_autocheckpoint = " + std::to_string(checkpoint_pages)).c_str());
    db.exec(("PRAGMA journal_size_limit = " + std::to_string(wal)).c_str());
  }
  // NORMAL with WAL: a commit is a write() into the WAL, which survives a
  // process crash; FULL also fsyncs it, which survives a power loss.
  db.exec(options.sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");

  install_or_upgrade(db);
  return checkpoint_pages;
}
}  // namespace dissem::cache
