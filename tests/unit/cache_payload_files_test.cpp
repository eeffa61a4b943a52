// Large messages' payload in files beside the cache database
// (cache/payload_files.h), their index in `file_spans` (cache/fragment_spans.h).
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cache/fragment_spans.h"
#include "cache/store.h"
#include "support/store_fixtures.h"
#include "support/temp_db.h"

using dissem::cache::FragmentList;
using dissem::cache::Store;
using dissem::cache::StoreError;
using dissem::cache::StoreOptions;
using dissem::test::TempDb;
using namespace dissem::test::store;
namespace fs = std::filesystem;

namespace cache_payload_files_test {
namespace {

constexpr std::uint32_t kFrag = 1400;
constexpr std::uint32_t kLarge = 140 * kFrag + 321;  // 141 fragments, the last one short

fs::path payload_dir(const TempDb& db) { return db.path() + "-payload"; }

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Files that hold bytes (emptied ones are spares, kept for reuse).
std::size_t nonempty_files(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& name : files_in(dir)) n += fs::file_size(dir / name) > 0 ? 1 : 0;
  return n;
}

long long count_rows(const std::string& path, const char* sql) {
  sqlite3* raw = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(raw, sql, -1, &stmt, nullptr), SQLITE_OK);
  long long n = -1;
  if (sqlite3_step(stmt) == SQLITE_ROW) n = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  sqlite3_close(raw);
  return n;
}

std::uint32_t fragments_of(std::uint32_t total) { return (total + kFrag - 1) / kFrag; }

// Fragment i of a message cut into kFrag-byte pieces.
void put_one(Store& s, const Message& m, std::uint32_t i) {
  const std::uint32_t off = i * kFrag;
  ASSERT_TRUE(s.put_fragment(m.meta, off, m.part(off, std::min(kFrag, m.meta.total_length - off)), kT0 + i));
}

FragmentList expected_layout(const Message& m, const std::vector<std::uint32_t>& indices) {
  FragmentList out;
  for (const std::uint32_t i : indices) out.emplace_back(i * kFrag, std::min(kFrag, m.meta.total_length - i * kFrag));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(FragmentSpans, InOrderFragmentsBecomeOneRunPlusTheShortLastOne) {
  FragmentList in;
  for (std::uint32_t i = 0; i < 100; ++i) in.emplace_back(i * 1000, 1000);
  in.emplace_back(100'000, 17);
  const auto bytes = dissem::cache::encode_spans(in);
  EXPECT_EQ(bytes.size(), 24u);
  EXPECT_EQ(dissem::cache::decode_spans(bytes), in);
}

TEST(FragmentSpans, ArbitraryOrderAndOverlapsRoundTripExactly) {
  const FragmentList in = {{5000, 1000}, {0, 1000}, {1000, 1000}, {500, 700}, {2000, 1000}, {7, 0}, {9000, 3}};
  EXPECT_EQ(dissem::cache::decode_spans(dissem::cache::encode_spans(in)), in);
}

TEST(FragmentSpans, MalformedListsAreRefused) {
  using dissem::cache::decode_spans;
  const std::vector<std::uint8_t> ragged(13, 0);
  EXPECT_THROW(decode_spans(ragged), StoreError);
  // offset 0, length 10, count 0
  const std::vector<std::uint8_t> empty_run = {0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_THROW(decode_spans(empty_run), StoreError);
  // offset 0xfffffff0, length 16, count 2: past 4 GiB
  const std::vector<std::uint8_t> too_far = {0xf0, 0xff, 0xff, 0xff, 16, 0, 0, 0, 2, 0, 0, 0};
  EXPECT_THROW(decode_spans(too_far), StoreError);
  // several empty fragments
  const std::vector<std::uint8_t> empties = {0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0};
  EXPECT_THROW(decode_spans(empties), StoreError);
}

TEST(CachePayloadFiles, LargeMessagesGoToFilesAndSmallOnesToRows) {
  TempDb db;
  const Message large(1, kLarge);
  const Message small(2, 10 * kFrag);
  {
    auto s = Store::open(db.path());
    large.put(*s, kFrag, 0, fragments_of(kLarge));
    small.put(*s, kFrag, 0, 10);
    s->mark_complete(large.meta.id);
    s->flush();
    EXPECT_EQ(s->read_message(large.meta.id), large.payload);
    EXPECT_EQ(s->read_message(small.meta.id), small.payload);
    EXPECT_EQ(s->total_bytes(), kLarge + 10 * kFrag);
  }
  EXPECT_EQ(files_in(payload_dir(db)).size(), 1u);
  EXPECT_EQ(count_rows(db.path(), "SELECT count(*) FROM fragments"), 10) << "only the small message's rows";
  EXPECT_EQ(count_rows(db.path(), "SELECT count(*) FROM file_spans"), 1) << "merged into one row at completion";
  EXPECT_EQ(count_rows(db.path(), "SELECT sum(payload_file) FROM messages"), 1);

  auto s = Store::open(db.path());
  EXPECT_EQ(s->read_message(large.meta.id), large.payload);
  EXPECT_EQ(s->total_bytes(), kLarge + 10 * kFrag);
  const auto frags = s->read_fragments(large.meta.id, 3 * kFrag + 5, 5 * kFrag + 1);
  ASSERT_EQ(frags.size(), 3u);
  for (const auto& f : frags) {
    EXPECT_EQ(f.offset % kFrag, 0u);
    EXPECT_EQ(f.data, std::vector<std::uint8_t>(large.part(f.offset, kFrag).begin(), large.part(f.offset, kFrag).end()));
  }
  const auto last = s->read_fragments(large.meta.id, kLarge - 1, kLarge);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].data.size(), 321u);
}

TEST(CachePayloadFiles, AnIncompleteMessageKeepsItsExactLayoutAcrossRestarts) {
  TempDb db;
  const Message m(1, kLarge);
  std::vector<std::uint32_t> held = {140, 7, 3, 4, 5, 90, 91, 20};
  {
    auto s = Store::open(db.path());
    for (const std::uint32_t i : held) {
      put_one(*s, m, i);
      s->flush();  // a row per commit
    }
  }
  {
    auto s = Store::open(db.path());
    const auto index = s->load_index();
    ASSERT_EQ(index.size(), 1u);
    EXPECT_FALSE(index[0].complete);
    EXPECT_EQ(index[0].fragments, expected_layout(m, held));
    EXPECT_EQ(s->fragment_offsets(m.meta.id, 0, kLarge), expected_layout(m, held));
    EXPECT_FALSE(s->read_message(m.meta.id));
    EXPECT_FALSE(s->put_fragment(m.meta, 90 * kFrag, m.part(90 * kFrag, kFrag), kT0)) << "already held";
    for (std::uint32_t i = 0; i < fragments_of(kLarge); ++i)
      if (std::find(held.begin(), held.end(), i) == held.end()) put_one(*s, m, i);
    s->mark_complete(m.meta.id);
  }
  EXPECT_EQ(count_rows(db.path(), "SELECT count(*) FROM file_spans"), 1);
  auto s = Store::open(db.path());
  EXPECT_EQ(s->read_message(m.meta.id), m.payload);
  EXPECT_EQ(s->fragment_offsets(m.meta.id, 0, kLarge).size(), fragments_of(kLarge));
}

TEST(CachePayloadFiles, FlushedWritesSurviveKillAndUnflushedOnesDoNot) {
  TempDb db;
  const Message kept(1, kLarge);
  const Message partial(2, kLarge);
  const Message lost(3, kLarge);
  in_killed_child([&] {
    auto s = Store::open(db.path());
    kept.put(*s, kFrag, 0, fragments_of(kLarge));
    s->mark_complete(kept.meta.id);
    partial.put(*s, kFrag, 0, 50);
    s->flush();
    partial.put(*s, kFrag, 50, 60);
    lost.put(*s, kFrag, 0, 30);
    kill_self();
  });
  auto s = Store::open(db.path());
  EXPECT_EQ(s->read_message(kept.meta.id), kept.payload);
  EXPECT_FALSE(s->contains(lost.meta.id));
  const auto index = s->load_index();
  const auto rec = std::find_if(index.begin(), index.end(), [&](const auto& r) { return r.meta.id == partial.meta.id; });
  ASSERT_NE(rec, index.end());
  EXPECT_EQ(rec->fragments.size(), 50u) << "what the last commit recorded";
  EXPECT_EQ(s->total_bytes(), kLarge + 50 * kFrag);
  EXPECT_EQ(nonempty_files(payload_dir(db)), 2u) << "the lost message's file is emptied at open";
}

TEST(CachePayloadFiles, AFileShorterThanItsIndexLosesOnlyWhatItLacks) {
  TempDb db;
  const Message m(1, kLarge);
  {
    auto s = Store::open(db.path());
    m.put(*s, kFrag, 0, fragments_of(kLarge));
    s->mark_complete(m.meta.id);
  }
  const auto files = files_in(payload_dir(db));
  ASSERT_EQ(files.size(), 1u);
  fs::resize_file(payload_dir(db) / files[0], 100 * kFrag + 10);
  {
    auto s = Store::open(db.path());
    EXPECT_EQ(s->total_bytes(), 100u * kFrag);
    const auto index = s->load_index();
    ASSERT_EQ(index.size(), 1u);
    EXPECT_FALSE(index[0].complete) << "a message that lost bytes is incomplete again";
    EXPECT_EQ(index[0].fragments.size(), 100u);
    EXPECT_FALSE(s->read_message(m.meta.id));
  }
  {
    // The correction was written back: it holds without the file check too.
    auto s = Store::open(db.path());
    EXPECT_EQ(s->load_index()[0].fragments.size(), 100u);
    m.put(*s, kFrag, 100, fragments_of(kLarge));
    s->mark_complete(m.meta.id);
  }
  auto s = Store::open(db.path());
  EXPECT_EQ(s->read_message(m.meta.id), m.payload);
}

TEST(CachePayloadFiles, AnErasedMessagesFileIsEmptiedAndReusedAndStrayFilesAtOpenToo) {
  TempDb db;
  const Message a(1, kLarge);
  const Message b(2, kLarge);
  const Message c(3, kLarge);
  {
    auto s = Store::open(db.path());
    a.put(*s, kFrag, 0, 3);
    b.put(*s, kFrag, 0, 3);
    s->flush();
    ASSERT_EQ(files_in(payload_dir(db)).size(), 2u);
    s->erase(a.meta.id);
    EXPECT_EQ(nonempty_files(payload_dir(db)), 2u) << "kept until the erase commits";
    s->flush();
    EXPECT_EQ(nonempty_files(payload_dir(db)), 1u);
    EXPECT_EQ(s->total_bytes(), 3u * kFrag);
    c.put(*s, kFrag, 0, 3);
    s->flush();
    EXPECT_EQ(files_in(payload_dir(db)).size(), 2u) << "the emptied file is reused";
    EXPECT_EQ(s->read_fragments(c.meta.id, 0, kLarge).size(), 3u);
    EXPECT_EQ(s->read_message(a.meta.id), std::nullopt);
  }
  std::ofstream(payload_dir(db) / "991") << "left by a transaction that never committed";
  std::ofstream(payload_dir(db) / "notes.txt") << "not ours";
  {
    auto s = Store::open(db.path());
    EXPECT_EQ(nonempty_files(payload_dir(db)), 3u) << "991 emptied, notes.txt untouched";
    EXPECT_TRUE(!fs::exists(payload_dir(db) / "991") || fs::file_size(payload_dir(db) / "991") == 0);
    EXPECT_GT(fs::file_size(payload_dir(db) / "notes.txt"), 0u);
    EXPECT_EQ(s->fragment_offsets(b.meta.id, 0, kLarge).size(), 3u);
    EXPECT_EQ(s->read_fragments(c.meta.id, 0, kLarge).size(), 3u);
  }
  EXPECT_EQ(count_rows(db.path(), "SELECT count(*) FROM file_spans"), 2);
}

TEST(CachePayloadFiles, AnEraseThatNeverCommitsLeavesTheMessageWhole) {
  TempDb db;
  const Message a(1, kLarge);
  const Message b(2, kLarge);
  in_killed_child([&] {
    auto s = Store::open(db.path());
    a.put(*s, kFrag, 0, fragments_of(kLarge));
    s->flush();
    s->erase(a.meta.id);
    b.put(*s, kFrag, 0, fragments_of(kLarge));  // may not take a's file before the erase commits
    kill_self();
  });
  auto s = Store::open(db.path());
  EXPECT_EQ(s->read_message(a.meta.id), a.payload);
  EXPECT_FALSE(s->contains(b.meta.id));
}

TEST(CachePayloadFiles, ThresholdZeroKeepsRowsAndEitherKindStaysReadableWhenItChanges) {
  TempDb db;
  const Message in_rows(1, kLarge);
  const Message in_file(2, kLarge);
  StoreOptions rows_only;
  rows_only.payload_file_min_bytes = 0;
  {
    auto s = Store::open(db.path(), rows_only);
    in_rows.put(*s, kFrag, 0, fragments_of(kLarge));
  }
  EXPECT_FALSE(fs::exists(payload_dir(db))) << "no directory without a file";
  {
    auto s = Store::open(db.path());
    EXPECT_EQ(s->read_message(in_rows.meta.id), in_rows.payload);
    in_file.put(*s, kFrag, 0, fragments_of(kLarge));
  }
  EXPECT_EQ(files_in(payload_dir(db)).size(), 1u);
  auto s = Store::open(db.path(), rows_only);
  EXPECT_EQ(s->read_message(in_rows.meta.id), in_rows.payload);
  EXPECT_EQ(s->read_message(in_file.meta.id), in_file.payload);
  EXPECT_EQ(s->total_bytes(), 2u * kLarge);
}

TEST(CachePayloadFiles, AVersion6CacheIsUpgraded) {
  TempDb db;
  const Message old(1, kLarge);
  StoreOptions rows_only;
  rows_only.payload_file_min_bytes = 0;
  { old.put(*Store::open(db.path(), rows_only), kFrag, 0, fragments_of(kLarge)); }
  dissem::test::downgrade_to_schema_6(db.path());
  const Message fresh(2, kLarge);
  {
    auto s = Store::open(db.path());
    EXPECT_EQ(s->read_message(old.meta.id), old.payload);
    fresh.put(*s, kFrag, 0, fragments_of(kLarge));
  }
  EXPECT_EQ(count_rows(db.path(), "PRAGMA user_version"), 7);
  auto s = Store::open(db.path());
  EXPECT_EQ(s->read_message(fresh.meta.id), fresh.payload);
  EXPECT_EQ(files_in(payload_dir(db)).size(), 1u);
}

TEST(CachePayloadFiles, ManyCommitsOfScatteredFragmentsAreMergedAndSurviveKill) {
  TempDb db;
  const Message m(1, 400 * kFrag);
  StoreOptions opts;
  opts.batch_fragments = 2;  // a commit every two fragments: 200 commits
  in_killed_child([&] {
    auto s = Store::open(db.path(), opts);
    // Backwards, so no two fragments of a commit join into one run.
    for (std::uint32_t i = 400; i-- > 0;) put_one(*s, m, i);
    kill_self();
  });
  EXPECT_LE(count_rows(db.path(), "SELECT count(*) FROM file_spans"), 64) << "rows merged as they pile up";
  auto s = Store::open(db.path(), opts);
  EXPECT_EQ(s->load_index()[0].fragments.size(), 400u);
  EXPECT_EQ(s->read_message(m.meta.id), m.payload);
}

TEST(CachePayloadFiles, FullSyncModeStoresAndReadsBack) {
  TempDb db;
  const Message m(1, kLarge);
  StoreOptions opts;
  opts.sync_full = true;
  {
    auto s = Store::open(db.path(), opts);
    m.put(*s, kFrag, 0, fragments_of(kLarge));
    s->flush();
  }
  auto s = Store::open(db.path(), opts);
  EXPECT_EQ(s->read_message(m.meta.id), m.payload);
}

TEST(CachePayloadFiles, APayloadPathThatIsNotADirectoryIsRefusedByName) {
  TempDb db;
  std::ofstream(payload_dir(db)) << "a file where the directory should be";
  try {
    Store::open(db.path());
    FAIL() << "opened with a file in the way";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find(payload_dir(db).string()), std::string::npos) << e.what();
  }
  fs::remove(payload_dir(db));
}

TEST(CachePayloadFiles, AWriteThatFailsRollsBackToTheLastFlush) {
  TempDb db;
  const Message kept(1, kLarge);
  const Message broken(2, kLarge);
  auto s = Store::open(db.path());
  kept.put(*s, kFrag, 0, fragments_of(kLarge));
  s->flush();
  // A file size limit below the offsets written next: pwrite fails (EFBIG)
  // as on a full disk, before SQLite writes anything of that commit.
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit low = old;
  low.rlim_cur = 50 * kFrag;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &low), 0);
  bool threw = false;
  try {
    broken.put(*s, kFrag, 0, 10);
    broken.put(*s, kFrag, 100, 110);
    s->flush();
  } catch (const StoreError& e) {
    threw = true;
    EXPECT_NE(std::string(e.what()).find(payload_dir(db).string()), std::string::npos) << e.what();
  }
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_TRUE(threw);
  EXPECT_FALSE(s->contains(broken.meta.id));
  EXPECT_EQ(s->total_bytes(), kLarge);
  EXPECT_EQ(s->read_message(kept.meta.id), kept.payload);
  broken.put(*s, kFrag, 0, 10);
  s->flush();
  EXPECT_EQ(s->total_bytes(), kLarge + 10u * kFrag);
}

TEST(CachePayloadFiles, AfterAnUncleanCloseCompleteFileBackedMessagesAreUnverified) {
  TempDb db;
  const Message large(1, kLarge);
  const Message partial(2, kLarge);
  const Message small(3, 10 * kFrag);
  in_killed_child([&] {
    auto s = Store::open(db.path());
    large.put(*s, kFrag, 0, fragments_of(kLarge));
    s->mark_complete(large.meta.id);
    partial.put(*s, kFrag, 0, 5);
    small.put(*s, kFrag, 0, 10);
    s->mark_complete(small.meta.id);
    s->flush();
    kill_self();
  });
  auto unverified = [](Store& s, const MessageId& id) {
    for (const auto& r : s.load_index())
      if (r.meta.id == id) return r.unverified;
    ADD_FAILURE() << "not cached";
    return false;
  };
  {
    auto s = Store::open(db.path());
    EXPECT_TRUE(unverified(*s, large.meta.id)) << "a power loss may have left holes in its file";
    EXPECT_FALSE(unverified(*s, partial.meta.id)) << "incomplete: verified when it completes";
    EXPECT_FALSE(unverified(*s, small.meta.id)) << "in rows, which SQLite keeps consistent";
  }
  auto s = Store::open(db.path());
  EXPECT_FALSE(unverified(*s, large.meta.id)) << "closed cleanly since";
}

}  // namespace cache_payload_files_test
