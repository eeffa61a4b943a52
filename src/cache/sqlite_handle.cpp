#include "cache/sqlite_handle.h"

#include <limits>
#include <utility>

namespace dissem::cache::sql {

Database::Database(std::string path, int flags) : path_(std::move(path)) {
  const int rc = sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr);
  if (rc == SQLITE_OK) {
    // Extended codes distinguish e.g. SQLITE_IOERR_WRITE from SQLITE_IOERR_FSYNC
    // in error messages.
    sqlite3_extended_result_codes(db_, 1);
  } else {
    // The handle exists even on failure (unless out of memory) and holds the
    // detailed message; it must still be closed.
    StoreError e = error("cannot open database", rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw e;
  }
}

Database::~Database() {
  // All statements are finalized by their owners before this runs, so a plain
  // close succeeds; it also checkpoints the WAL into the main file.
  sqlite3_close(db_);
}

void Database::exec(const char* sql) {
  const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) fail(std::string("cannot execute \"") + sql + "\"", rc);
}

std::string Database::query_text(const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr);
  if (rc != SQLITE_OK) fail(std::string("cannot prepare \"") + sql + "\"", rc);
  std::string out;
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    if (text != nullptr) out.assign(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
    rc = SQLITE_DONE;
  }
  if (rc != SQLITE_DONE) {
    StoreError e = error(std::string("cannot execute \"") + sql + "\"", rc);
    sqlite3_finalize(stmt);
    throw e;
  }
  sqlite3_finalize(stmt);
  return out;
}

StoreError Database::error(std::string_view what, int rc) const {
  std::string detail;
  // sqlite3_errmsg describes the connection's most recent failure; when that
  // is not this one (no handle, or a check made here rather than by SQLite)
  // the generic text for rc is the honest one.
  if (db_ != nullptr && (sqlite3_extended_errcode(db_) & 0xff) == (rc & 0xff)) {
    detail = sqlite3_errmsg(db_);
  } else {
    detail = sqlite3_errstr(rc);
  }
  std::string msg = "cache store '" + path_ + "': ";
  msg.append(what);
  msg += ": ";
  msg += detail;
  msg += " (sqlite error " + std::to_string(rc) + ")";
  return StoreError(msg);
}

StoreError Database::error(std::string_view what) const {
  std::string msg = "cache store '" + path_ + "': ";
  msg.append(what);
  return StoreError(msg);
}

Statement::Statement(Database& db, const char* sql) : db_(db), sql_(sql) {
  // PERSISTENT: the statement lives as long as the Store, so SQLite may place
  // it in memory that is not recycled for short-lived allocations.
  const int rc = sqlite3_prepare_v3(db_.get(), sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) db_.fail(std::string("cannot prepare \"") + sql + "\"", rc);
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

void Statement::bind(int index, std::int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) db_.fail(std::string("cannot bind to \"") + sql_ + "\"", rc);
}

void Statement::bind(int index, std::string_view text) {
  if (text.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    db_.fail(std::string("text too long for \"") + sql_ + "\"", SQLITE_TOOBIG);
  // SQLITE_TRANSIENT: the text is usually a temporary (a key, a group name).
  const int rc = sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) db_.fail(std::string("cannot bind to \"") + sql_ + "\"", rc);
}

void Statement::bind_blob(int index, std::span<const std::uint8_t> bytes) {
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    db_.fail(std::string("blob too large for \"") + sql_ + "\"", SQLITE_TOOBIG);
  // A zero-length blob must still be a blob, not NULL: pass a non-null pointer.
  static const std::uint8_t kEmpty = 0;
  const void* data = bytes.empty() ? &kEmpty : bytes.data();
  const int rc = sqlite3_bind_blob(stmt_, index, data, static_cast<int>(bytes.size()), SQLITE_STATIC);
  if (rc != SQLITE_OK) db_.fail(std::string("cannot bind to \"") + sql_ + "\"", rc);
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // Build the error before resetting: reset would not change errmsg, but
  // keeping the order obvious avoids relying on that.
  StoreError e = db_.error(std::string("cannot execute \"") + sql_ + "\"", rc);
  sqlite3_reset(stmt_);
  throw e;
}

void Statement::run() {
  ResetOnExit guard(*this);
  while (step()) {
  }
}

std::string Statement::column_text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (text == nullptr) return {};
  return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::span<const std::uint8_t> Statement::column_blob(int column) const {
  // sqlite3_column_blob must be called before sqlite3_column_bytes.
  const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, column));
  const auto size = static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column));
  if (data == nullptr) return {};
  return {data, size};
}

}  // namespace dissem::cache::sql
