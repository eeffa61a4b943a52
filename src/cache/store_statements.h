// The SQL statements of the SQLite Store, prepared once when it opens.
#pragma once

#include "cache/sqlite_handle.h"

namespace dissem::cache {

struct StoreStatements {
  explicit StoreStatements(sql::Database& db)
      : begin(db, "BEGIN IMMEDIATE"),
        commit(db, "COMMIT"),
        insert_message(db,
                       "INSERT INTO messages (group_name, publisher, seq, total_length, priority, expiry_ms,"
                       " history_window, tag, complete, own, stored_bytes, first_seen_us, last_used_us, digest,"
                       " signature, key_epoch, chain, flags, supersedes, payload_file)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, ?9, 0, ?10, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
                       " ?17)"),
        update_message(db,
                       "UPDATE messages SET complete = ?2, own = ?3, stored_bytes = ?4, last_used_us = ?5, digest = ?6"
                       " WHERE id = ?1"),
        // OR IGNORE: should the mirror ever miss a held fragment, the rowid
        // key (message << 32 | offset) still keeps the insert idempotent
        // (changes() tells).
        insert_fragment(db, "INSERT OR IGNORE INTO fragments (id, data) VALUES ((?1 << 32) | ?2, ?3)"),
        select_fragments(db,
                         "SELECT id & 4294967295, data FROM fragments WHERE id BETWEEN (?1 << 32) | ?2 AND (?1 << 32) | ?3"
                         " ORDER BY id"),
        select_lengths(db, "SELECT id & 4294967295, length(data) FROM fragments"
                       " WHERE id BETWEEN (?1 << 32) AND (?1 << 32) | 4294967295 ORDER BY id"),
        delete_fragments(db, "DELETE FROM fragments WHERE id BETWEEN (?1 << 32) AND (?1 << 32) | 4294967295"),
        insert_spans(db, "INSERT INTO file_spans (id, runs) VALUES ((?1 << 32) | ?2, ?3)"),
        select_spans(db, "SELECT runs FROM file_spans WHERE id BETWEEN (?1 << 32) AND (?1 << 32) | 4294967295"
                     " ORDER BY id"),
        delete_spans(db, "DELETE FROM file_spans WHERE id BETWEEN (?1 << 32) AND (?1 << 32) | 4294967295"),
        delete_message(db, "DELETE FROM messages WHERE id = ?1"),
        get_state(db, "SELECT value FROM node_state WHERE key = ?1"),
        set_state(db,
                  "INSERT INTO node_state (key, value) VALUES (?1, ?2)"
                  " ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
        erase_state(db, "DELETE FROM node_state WHERE key = ?1"),
        // substr, not LIKE: keys are taken byte for byte, wildcards and all.
        states_with_prefix(db, "SELECT key, value FROM node_state WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key") {}

  sql::Statement begin;
  sql::Statement commit;
  sql::Statement insert_message;
  sql::Statement update_message;
  sql::Statement insert_fragment;
  sql::Statement select_fragments;
  sql::Statement select_lengths;
  sql::Statement delete_fragments;
  sql::Statement insert_spans;
  sql::Statement select_spans;
  sql::Statement delete_spans;
  sql::Statement delete_message;
  sql::Statement get_state;
  sql::Statement set_state;
  sql::Statement erase_state;
  sql::Statement states_with_prefix;
};

}  // namespace dissem::cache
