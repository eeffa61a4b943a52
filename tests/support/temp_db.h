// A database file path in the test temp directory, removed (with its WAL,
// shared-memory and journal files and its payload directory) on construction
// and on scope exit.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

namespace dissem::test {

class TempDb {
 public:
  TempDb() {
    static std::atomic<int> counter{0};
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    path_ = testing::TempDir() + "dissem_" + std::to_string(::getpid()) + "_" +
            (info != nullptr ? info->name() : "db") + "_" + std::to_string(counter++) + ".db";
    remove();
  }
  ~TempDb() { remove(); }
  TempDb(const TempDb&) = delete;
  TempDb& operator=(const TempDb&) = delete;
  const std::string& path() const { return path_; }

 private:
  void remove() {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path_ + suffix);
    std::filesystem::remove_all(path_ + "-payload");
  }
  std::string path_;
};

inline void run_sql(const std::string& path, const char* sql) {
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  const int rc = sqlite3_exec(raw, sql, nullptr, nullptr, nullptr);
  sqlite3_close(raw);
  ASSERT_EQ(rc, SQLITE_OK);
}

// Turns a cache file into what schema version 6 wrote: every payload in rows.
// (Only for caches without payload files.)
inline void downgrade_to_schema_6(const std::string& path) {
  run_sql(path, "ALTER TABLE messages DROP COLUMN payload_file; DROP TABLE file_spans; PRAGMA user_version = 6");
}

// ... and what schema version 5 wrote: expiry in whole seconds, no
// supersession columns.
inline void downgrade_to_schema_5(const std::string& path) {
  downgrade_to_schema_6(path);
  run_sql(path,
          "ALTER TABLE messages DROP COLUMN flags; ALTER TABLE messages DROP COLUMN supersedes;"
          " UPDATE messages SET expiry_ms = (expiry_ms + 999) / 1000;"
          " ALTER TABLE messages RENAME COLUMN expiry_ms TO expiry_s; PRAGMA user_version = 5");
}

// ... and what schema version 4 wrote: no chain column either.
inline void downgrade_to_schema_4(const std::string& path) {
  downgrade_to_schema_5(path);
  run_sql(path, "ALTER TABLE messages DROP COLUMN chain; PRAGMA user_version = 4");
}

// ... and what schema version 3 wrote: no signature columns either.
inline void downgrade_to_schema_3(const std::string& path) {
  downgrade_to_schema_4(path);
  run_sql(path,
          "ALTER TABLE messages DROP COLUMN signature; ALTER TABLE messages DROP COLUMN key_epoch;"
          " PRAGMA user_version = 3");
}

// ... and what schema version 2 wrote: no digest column either.
inline void downgrade_to_schema_2(const std::string& path) {
  downgrade_to_schema_3(path);
  run_sql(path, "ALTER TABLE messages DROP COLUMN digest; PRAGMA user_version = 2");
}

}  // namespace dissem::test
