// The node's local cache: every fragment it holds, in SQLite.
//
// One Store per node. The daemon opens a file (WAL journal); the simulator and
// most tests open ":memory:". The engine is the only writer.
//
// Durability contract (the daemon relies on it for kill -9 safety):
//  * put_fragment() writes inside an open transaction that is committed by
//    flush(), or automatically every StoreOptions::batch_fragments inserts.
//    Payload kept in files is written out before the commit that records it.
//  * Anything written before flush() returned survives a process crash.
//  * The engine flushes before it acknowledges a publish and before it hands
//    a completed message to a subscriber.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/message_record.h"
#include "core/types.h"

namespace dissem::cache {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct StoreOptions {
  // Soft limit on payload bytes held; the engine's deletion controller evicts
  // when total_bytes() goes above it.
  std::uint64_t quota_bytes = 512ull << 20;
  // Fragments per write transaction before an automatic commit.
  int batch_fragments = 1024;
  // false: WAL + synchronous=NORMAL (survives process crashes, the default).
  // true: synchronous=FULL (also survives power loss, slower).
  bool sync_full = false;
  // SQLite page size, fixed when the database is created (a power of two in
  // [512, 65536]). Large pages suit a cache of many ~1400-byte fragments;
  // each table and index of an empty database still takes a page, so many
  // small caches (the simulator's nodes) hold much less with small ones.
  int page_bytes = 16384;
  // Messages of at least this many bytes keep their payload in a file of
  // their own beside a database file (`<path>-payload/`), written once at
  // each fragment's offset, instead of in rows that SQLite writes twice (WAL,
  // then checkpoint). 0: every payload in rows. In-memory stores always use rows.
  std::uint32_t payload_file_min_bytes = 64 * 1024;
};

struct Fragment {
  std::uint32_t offset = 0;
  std::vector<std::uint8_t> data;
};

// Summary of one cached message (no payload): for restart and eviction.
using dissem::MessageRecord;  // core/message_record.h

class Store {
 public:
  // Opens (creating if needed) the database at `path`; ":memory:" for a
  // private in-memory database. Throws StoreError naming the path on failure.
  static std::unique_ptr<Store> open(const std::string& path, const StoreOptions& options = {});
  virtual ~Store() = default;

  // --- fragments ---------------------------------------------------------
  // Stores one fragment. Creates the message row from `meta` on first sight.
  // Idempotent: returns false (and writes nothing) if a fragment at this
  // offset is already held. `own` marks messages published by this node.
  virtual bool put_fragment(const MessageMeta& meta, std::uint32_t offset,
                            std::span<const std::uint8_t> payload, Micros now, bool own = false) = 0;

  // Fragments of `id` that overlap [begin, end), ascending by offset.
  virtual std::vector<Fragment> read_fragments(const MessageId& id, std::uint32_t begin,
                                               std::uint32_t end) = 0;

  // (offset, length) of the fragments of `id` overlapping [begin, end),
  // without reading payloads (used to plan repairs). The default reads them.
  virtual std::vector<std::pair<std::uint32_t, std::uint32_t>> fragment_offsets(const MessageId& id,
                                                                               std::uint32_t begin,
                                                                               std::uint32_t end) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const auto& f : read_fragments(id, begin, end))
      out.emplace_back(f.offset, static_cast<std::uint32_t>(f.data.size()));
    return out;
  }

  // The whole message if every byte of it is held, else nullopt.
  virtual std::optional<std::vector<std::uint8_t>> read_message(const MessageId& id) = 0;

  virtual void mark_complete(const MessageId& id) = 0;
  // Records the message's verification data (MessageMeta::digest): for
  // messages cached before digests existed, once it is computed or learnt.
  virtual void set_digest(const MessageId& id, std::uint64_t digest) = 0;
  virtual void touch(const MessageId& id, Micros now) = 0;  // LRU bookkeeping
  virtual bool contains(const MessageId& id) = 0;

  // Commits the open write transaction, if any.
  virtual void flush() = 0;

  // --- restart -----------------------------------------------------------
  // Every cached message, with fragment ranges for the incomplete ones.
  virtual std::vector<MessageRecord> load_index() = 0;

  // --- deletion ----------------------------------------------------------
  // Summaries of all messages (fragments left empty), for eviction policies.
  virtual std::vector<MessageRecord> list_messages() = 0;
  virtual void erase(const MessageId& id) = 0;
  virtual std::uint64_t total_bytes() const = 0;
  virtual std::uint64_t message_count() const = 0;
  virtual const StoreOptions& options() const = 0;

  // --- node state (small key/value table) ---------------------------------
  // Used for the node id and the publisher's per-group sequence counters,
  // written in the same transaction as the fragments they describe.
  virtual std::optional<std::string> get_state(const std::string& key) = 0;
  virtual void set_state(const std::string& key, const std::string& value) = 0;
  virtual void erase_state(const std::string& key) = 0;
  // Every (key, value) whose key starts with `prefix`, ascending by key.
  virtual std::vector<std::pair<std::string, std::string>> states_with_prefix(const std::string& prefix) = 0;
};

}  // namespace dissem::cache
