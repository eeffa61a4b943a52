// Opening a cache database: its pragmas (journal, page size, page cache,
// checkpoint spacing, synchronous mode) and its schema, created on a fresh
// file and upgraded from older versions in one transaction.
#pragma once

#include <cstdint>

#include "cache/sqlite_handle.h"
#include "cache/store.h"

namespace dissem::cache {

// Sets up `db` for a Store (creating or upgrading its schema). Returns the WAL
// size, in pages, at which it is to be checkpointed (0 in memory). Throws
// StoreError naming the file and what is wrong with it.
int configure_database(sql::Database& db, bool in_memory, const StoreOptions& options);

}  // namespace dissem::cache
