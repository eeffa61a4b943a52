// The daemon's files on disk are private to its user: the cache (database,
// WAL and shared-memory files 0600, its directory 0700 when the daemon
// creates it) and the IPC socket's directory (never writable by others, so
// nobody else can replace the socket). Start-up refuses a directory that
// others may write to, and, under /tmp, one that another user owns.
#pragma once

#include <filesystem>
#include <string>

namespace dissem::daemon {

// Before the cache is opened: its directory exists and is safe, and the
// database file exists with mode 0600 (SQLite gives its WAL and shared
// memory files the database's mode). ":memory:" and "" need nothing.
void prepare_cache_files(const std::string& db_path);

// Before the socket is bound: its directory exists (created 0755, so
// clients allowed by the socket's own mode can reach it) and only its
// owner may write to it.
void prepare_socket_directory(const std::filesystem::path& dir);

}  // namespace dissem::daemon
