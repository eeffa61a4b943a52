// The on-disk layout of the cache. Bump kSchemaVersion (PRAGMA user_version)
// on any incompatible change; a Store refuses a database with a newer version
// rather than guess at it.
//
// The Store keeps a mirror of the `messages` table in memory (id -> rowid,
// flags, byte counts, held fragment offsets), so the hot path is one INSERT
// into `fragments` per fragment. Messages of at least
// StoreOptions::payload_file_min_bytes keep their payload in a file of their
// own instead (cache/payload_files.h): their hot path is a buffered write,
// and `file_spans` gets one row per commit that lists what it added. The aggregate columns of `messages`
// (complete, own, stored_bytes, last_used_us) are written lazily, but always
// in the same transaction as the fragments they describe, just before its
// COMMIT: every committed state of the file is self-consistent.
//
// No foreign keys: enforcing them would cost a parent lookup per fragment
// insert. Store::erase deletes a message's fragments and its row explicitly,
// in one transaction.
//
// Indexes: fragments are keyed by their rowid, id = message << 32 | offset,
// so one B-tree holds the data in (message, offset) order and an insert
// touches no separate index (measured 20-30 % faster than a UNIQUE index).
// A message's fragments are the rowid range [message << 32, message << 32 |
// 0xffffffff], which serves every per-message read, erase and the restart
// query. Message rowids must stay below 2^31 (checked on insert). Eviction and LRU order are decided from
// the in-memory mirror (Store::list_messages), so no index on last_used_us or
// expiry_ms is maintained: it would only slow down every commit.
#pragma once

namespace dissem::cache::schema {

inline constexpr int kVersion = 7;

// Message rowids above this would overflow the fragment key.
inline constexpr long long kMaxMessageRowid = (1LL << 31) - 1;

// Created in one transaction on a fresh database. The SQL comments are kept
// by SQLite in sqlite_schema, so `.schema` in the sqlite3 shell shows them.
inline constexpr const char* kCreate = R"sql(
CREATE TABLE messages (
  id             INTEGER PRIMARY KEY,  -- rowid, referenced by fragments.message
  group_name     TEXT    NOT NULL,     -- MessageId.group, bytes kept exactly
  publisher      INTEGER NOT NULL,     -- MessageId.publisher (NodeId)
  seq            INTEGER NOT NULL,     -- MessageId.seq: the uint64 bit pattern as int64
  total_length   INTEGER NOT NULL,     -- payload bytes of the whole message
  priority       INTEGER NOT NULL,
  expiry_ms      INTEGER NOT NULL,     -- absolute Unix milliseconds; 0 = never expires
  history_window INTEGER NOT NULL,     -- publisher's history hint (messages)
  tag            TEXT    NOT NULL,     -- application tag, bytes kept exactly
  complete       INTEGER NOT NULL,     -- 1 once every byte is held
  own            INTEGER NOT NULL,     -- 1 if published by this node
  stored_bytes   INTEGER NOT NULL,     -- sum of length(data) of its fragments
  first_seen_us  INTEGER NOT NULL,     -- Micros when the first fragment arrived
  last_used_us   INTEGER NOT NULL,     -- Micros of the last delivery or repair served (LRU)
  digest         INTEGER NOT NULL DEFAULT 0,  -- verification data (wire/message_digest.h) as int64; 0 = not known yet
  signature      BLOB    NOT NULL DEFAULT x'',  -- keyed groups: the publisher's manifest signature (64 B); empty in open groups
  key_epoch      INTEGER NOT NULL DEFAULT 0,    -- ... and the epoch of the group key that made it
  chain          BLOB    NOT NULL DEFAULT x'',  -- ... and the signed link to the publisher's previous message (16 B, or empty)
  flags          INTEGER NOT NULL DEFAULT 0,    -- supersession: 1 replace (by tag), 2 cancel (no payload of its own)
  supersedes     BLOB    NOT NULL DEFAULT x'',  -- superseded sequence numbers: [begin, end) pairs, u64 little-endian
  payload_file   INTEGER NOT NULL DEFAULT 0,    -- n > 0: the payload is in the file <database>-payload/<n>, listed in file_spans
  UNIQUE (group_name, publisher, seq)
);

CREATE TABLE fragments (
  id   INTEGER PRIMARY KEY,  -- messages.id << 32 | byte offset of data within the message
  data BLOB    NOT NULL      -- the payload bytes; their length is length(data)
);

-- The fragments held of messages whose payload is in a file (payload_file >
-- 0): one row per commit that added some, merged into one when the message
-- completes.
CREATE TABLE file_spans (
  id   INTEGER PRIMARY KEY,  -- messages.id << 32 | chunk number
  runs BLOB    NOT NULL      -- runs of equal-length contiguous fragments (cache/fragment_spans.h)
);

-- Small durable facts of the node: its id, the publisher's per-group
-- sequence counters ("pubseq/<group>"). Written in the same transaction as
-- the fragments they describe.
CREATE TABLE node_state (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
)sql";

// Version 2 to 3: messages gain their digest; 3 to 4: their signature; 4 to
// 5: their manifest chain link; 5 to 6: expiry in milliseconds, and
// supersession (replace and cancel); 6 to 7: payload files.
inline constexpr const char* kUpgradeFrom2 =
    "ALTER TABLE messages ADD COLUMN digest INTEGER NOT NULL DEFAULT 0";
inline constexpr const char* kUpgradeFrom3 =
    "ALTER TABLE messages ADD COLUMN signature BLOB NOT NULL DEFAULT x'';"
    "ALTER TABLE messages ADD COLUMN key_epoch INTEGER NOT NULL DEFAULT 0";
inline constexpr const char* kUpgradeFrom4 = "ALTER TABLE messages ADD COLUMN chain BLOB NOT NULL DEFAULT x''";
inline constexpr const char* kUpgradeFrom5 =
    "ALTER TABLE messages RENAME COLUMN expiry_s TO expiry_ms;"
    "UPDATE messages SET expiry_ms = expiry_ms * 1000;"
    "ALTER TABLE messages ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE messages ADD COLUMN supersedes BLOB NOT NULL DEFAULT x''";
inline constexpr const char* kUpgradeFrom6 =
    "ALTER TABLE messages ADD COLUMN payload_file INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE file_spans (id INTEGER PRIMARY KEY, runs BLOB NOT NULL)";

}  // namespace dissem::cache::schema
