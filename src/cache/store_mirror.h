// The SQLite Store's in-memory mirror of its `messages` table: one Entry per
// cached message with its flags, byte counts and the offsets and lengths of
// the fragments it holds, read from the file when the Store opens.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cache/fragment_spans.h"
#include "cache/payload_files.h"
#include "cache/sqlite_handle.h"
#include "cache/store.h"

namespace dissem::cache {

// The mirror of one `messages` row plus its fragment layout.
struct Entry {
  std::int64_t rowid = 0;
  MessageMeta meta;
  bool complete = false;
  bool own = false;
  std::uint64_t stored_bytes = 0;
  Micros first_seen = 0;
  Micros last_used = 0;
  // Aggregates changed since the last commit (and listed in the dirty list).
  bool dirty = false;
  // Complete messages found at open have their layout read on first use
  // only: reading it means touching every fragment row of the file, and most
  // of them are never asked for again.
  bool held_known = true;
  // Longest fragment held: bounds how far before `begin` an overlapping
  // fragment can start, so range lookups stay logarithmic.
  std::uint32_t max_fragment = 0;
  // offset -> length of every fragment held. A map (not a sorted vector)
  // keeps out-of-order repairs into messages of tens of thousands of
  // fragments at O(log n).
  std::map<std::uint32_t, std::uint32_t> held;

  // Number of the file that holds its payload (cache/payload_files.h); 0:
  // the payload is in `fragments` rows.
  std::int64_t file = 0;
  bool in_file() const { return file != 0; }
  // Rows of `file_spans` stored for it: the next one's chunk number.
  std::uint32_t chunks = 0;
  // Fragments written since the last commit, in arrival order.
  FragmentList unsaved;
  // Its `file_spans` rows no longer match `held`: rewrite them as one.
  bool respan = false;
  // Complete and file-backed, found after an unclean shutdown (MessageRecord::unverified).
  bool unverified = false;

  // Records the fragments of a `file_spans` row not held yet.
  void add_spans(std::span<const std::uint8_t> runs) {
    for (const auto& [offset, length] : decode_spans(runs))
      if (!held.contains(offset)) add(offset, length);
  }

  // Records a fragment in `held`, `max_fragment` and `stored_bytes`.
  void add(std::uint32_t offset, std::uint32_t length) {
    // Hint at the end: fragments mostly arrive in order.
    held.emplace_hint(held.end(), offset, length);
    max_fragment = std::max(max_fragment, length);
    stored_bytes += length;
  }
};

using MirrorIndex = std::unordered_map<MessageId, Entry, MessageIdHash>;

inline std::int64_t to_sql(std::uint64_t v) { return static_cast<std::int64_t>(v); }

// The supersedes column: each number as 8 bytes, little-endian.
std::vector<std::uint8_t> pack_u64(const std::vector<std::uint64_t>& values);
std::vector<std::uint64_t> unpack_u64(std::span<const std::uint8_t> bytes);

inline bool overlaps(std::uint64_t offset, std::uint64_t length, std::uint64_t begin, std::uint64_t end) {
  return offset < end && offset + length > begin;
}

MessageRecord summary(const Entry& e);

// Smallest start offset a fragment overlapping [begin, ...) can have.
inline std::uint32_t search_start(const Entry& e, std::uint32_t begin) {
  return e.max_fragment == 0 || begin < e.max_fragment ? 0 : begin - e.max_fragment + 1;
}

// First and last start offsets of the held fragments overlapping [begin, end).
std::optional<std::pair<std::uint32_t, std::uint32_t>> overlapping_span(const Entry& e, std::uint32_t begin,
                                                                       std::uint32_t end);

// Length of the prefix [0, n) that the held fragments cover without a gap.
std::uint64_t covered_prefix(const Entry& e);

struct Mirror {
  MirrorIndex index;
  std::uint64_t total_bytes = 0;
  // File-backed entries whose file held less than their `file_spans` said
  // (lost in a crash, or removed by hand): `held` now lists what the file
  // has, and their rows are to be rewritten (Entry::respan is set).
  std::vector<MessageId> damaged;
};

// Reads every message row, the layout of the incomplete ones (complete
// row-backed ones load lazily) and of every file-backed one, checked against
// its file's size. Files no row names are made spares (PayloadFiles::adopt).
// `files` is null for an in-memory store.
Mirror load_mirror(sql::Database& db, PayloadFiles* files);

}  // namespace dissem::cache
