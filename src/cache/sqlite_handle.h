// Thin RAII wrappers over the SQLite C API, used only by the SQLite Store.
//
// Every failure becomes a StoreError that names the database path and carries
// SQLite's own error text, so an operator can tell which cache file is at
// fault and why.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cache/store.h"

namespace dissem::cache::sql {

class Database {
 public:
  // Opens with sqlite3_open_v2(path, flags). Throws StoreError on failure.
  Database(std::string path, int flags);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  sqlite3* get() const { return db_; }
  const std::string& path() const { return path_; }

  // Runs one or more statements that return no rows of interest.
  void exec(const char* sql);
  // Runs a statement that returns a single row of one column (PRAGMA queries)
  // and returns that column as text ("" when there is no row).
  std::string query_text(const char* sql);

  // The error for a failed call with result code `rc`, naming `what` was being
  // done. Uses the connection's message when it describes `rc`.
  StoreError error(std::string_view what, int rc) const;
  // An error found by the Store itself rather than reported by SQLite.
  StoreError error(std::string_view what) const;
  [[noreturn]] void fail(std::string_view what, int rc) const { throw error(what, rc); }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

// A prepared statement, compiled once and reused for the life of the Store.
class Statement {
 public:
  Statement(Database& db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int index, std::int64_t value);
  void bind(int index, std::string_view text);
  // The bytes must stay valid until the statement is reset: SQLite does not
  // copy them (SQLITE_STATIC), which is what keeps inserts cheap.
  void bind_blob(int index, std::span<const std::uint8_t> bytes);

  // true: a row is available; false: the statement has finished.
  bool step();
  // Steps a statement that returns no rows, then resets it.
  void run();
  // Releases the statement's read cursor; bound values stay until rebound.
  void reset() { sqlite3_reset(stmt_); }

  std::int64_t column_int64(int column) const { return sqlite3_column_int64(stmt_, column); }
  std::string column_text(int column) const;
  std::span<const std::uint8_t> column_blob(int column) const;

  // Changes made by the last completed step on this connection.
  int changes() const { return sqlite3_changes(db_.get()); }

 private:
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
  const char* sql_;
};

// Resets a statement on scope exit so an early return or an exception never
// leaves a read cursor open (which would keep an implicit transaction alive).
class ResetOnExit {
 public:
  explicit ResetOnExit(Statement& s) : s_(s) {}
  ~ResetOnExit() { s_.reset(); }
  ResetOnExit(const ResetOnExit&) = delete;
  ResetOnExit& operator=(const ResetOnExit&) = delete;

 private:
  Statement& s_;
};

}  // namespace dissem::cache::sql
