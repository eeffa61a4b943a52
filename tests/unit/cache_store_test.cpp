#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "cache/store.h"
#include "support/store_fixtures.h"
#include "support/temp_db.h"

using dissem::MessageId;
using dissem::MessageMeta;
using dissem::Micros;
using dissem::cache::Fragment;
using dissem::MessageRecord;
using dissem::cache::Store;
using dissem::cache::StoreError;
using dissem::cache::StoreOptions;
using dissem::test::TempDb;
using namespace dissem::test::store;

namespace cache_store_test {
namespace {

std::vector<std::pair<std::uint32_t, std::uint32_t>> layout(const std::vector<Fragment>& frags) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const auto& f : frags) out.emplace_back(f.offset, static_cast<std::uint32_t>(f.data.size()));
  return out;
}

const MessageRecord* find(const std::vector<MessageRecord>& records, const MessageId& id) {
  for (const auto& r : records)
    if (r.meta.id == id) return &r;
  return nullptr;
}

void expect_same_meta(const MessageMeta& a, const MessageMeta& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.total_length, b.total_length);
  EXPECT_EQ(a.priority, b.priority);
  EXPECT_EQ(a.expiry_ms, b.expiry_ms);
  EXPECT_EQ(a.history_window, b.history_window);
  EXPECT_EQ(a.tag, b.tag);
}

}  // namespace

TEST(CacheStore, InsertsAndReadsBackFragments) {
  auto s = Store::open(":memory:");
  const Message m(1, 3000);
  m.put(*s, 1000, 0, 3);

  EXPECT_TRUE(s->contains(m.meta.id));
  EXPECT_FALSE(s->contains(make_meta(2, 10).id));
  EXPECT_EQ(s->total_bytes(), 3000u);
  EXPECT_EQ(s->message_count(), 1u);

  const auto frags = s->read_fragments(m.meta.id, 0, 3000);
  ASSERT_EQ(frags.size(), 3u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(frags[i].offset, i * 1000);
    EXPECT_EQ(frags[i].data,
              std::vector<std::uint8_t>(m.payload.begin() + i * 1000, m.payload.begin() + (i + 1) * 1000));
  }
  EXPECT_TRUE(s->read_fragments(make_meta(2, 10).id, 0, 100).empty()) << "unknown message";
}

TEST(CacheStore, DuplicateInsertReturnsFalseAndChangesNothing) {
  auto s = Store::open(":memory:");
  const Message m(1, 2000);
  m.put(*s, 1000, 0, 1);
  const auto other = bytes(1000, 99);
  EXPECT_FALSE(s->put_fragment(m.meta, 0, other, kT0 + 50));
  EXPECT_EQ(s->total_bytes(), 1000u);
  EXPECT_EQ(s->message_count(), 1u);
  const auto frags = s->read_fragments(m.meta.id, 0, 2000);
  ASSERT_EQ(frags.size(), 1u);
  EXPECT_EQ(frags[0].data, std::vector<std::uint8_t>(m.payload.begin(), m.payload.begin() + 1000));
  const auto rec = s->list_messages();
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0].stored_bytes, 1000u);
  EXPECT_EQ(rec[0].first_seen, kT0) << "a duplicate does not move first_seen";
}

TEST(CacheStore, ReadFragmentsSelectsOverlappingRange) {
  auto s = Store::open(":memory:");
  const Message m(1, 500);
  m.put(*s, 100, 0, 5);  // [0,100) [100,200) ... [400,500)

  using Layout = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_EQ(layout(s->read_fragments(m.meta.id, 150, 250)), (Layout{{100, 100}, {200, 100}}));
  EXPECT_EQ(layout(s->read_fragments(m.meta.id, 100, 101)), (Layout{{100, 100}}));
  EXPECT_EQ(layout(s->read_fragments(m.meta.id, 99, 100)), (Layout{{0, 100}}));
  EXPECT_EQ(layout(s->read_fragments(m.meta.id, 200, 300)), (Layout{{200, 100}})) << "end is exclusive";
  EXPECT_EQ(layout(s->read_fragments(m.meta.id, 0, 1000)).size(), 5u);
  EXPECT_TRUE(s->read_fragments(m.meta.id, 500, 600).empty());
  EXPECT_TRUE(s->read_fragments(m.meta.id, 300, 300).empty()) << "empty range";
  EXPECT_TRUE(s->read_fragments(m.meta.id, 300, 200).empty()) << "inverted range";

  const auto frag = s->read_fragments(m.meta.id, 250, 251);
  ASSERT_EQ(frag.size(), 1u);
  EXPECT_EQ(frag[0].data, std::vector<std::uint8_t>(m.payload.begin() + 200, m.payload.begin() + 300));

  // fragment_offsets answers the same question without payloads.
  EXPECT_EQ(s->fragment_offsets(m.meta.id, 150, 250), (Layout{{100, 100}, {200, 100}}));
  EXPECT_EQ(s->fragment_offsets(m.meta.id, 0, 1), (Layout{{0, 100}}));
  EXPECT_TRUE(s->fragment_offsets(m.meta.id, 500, 501).empty());
}

TEST(CacheStore, ReadFragmentsSkipsGapsAndHandlesUnevenFragments) {
  auto s = Store::open(":memory:");
  const Message m(1, 1000);
  ASSERT_TRUE(s->put_fragment(m.meta, 600, m.part(600, 400), kT0));  // long, out of order
  ASSERT_TRUE(s->put_fragment(m.meta, 0, m.part(0, 100), kT0));
  ASSERT_TRUE(s->put_fragment(m.meta, 300, m.part(300, 50), kT0));

  using Layout = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_EQ(layout(s->read_fragments(m.meta.id, 0, 1000)), (Layout{{0, 100}, {300, 50}, {600, 400}}));
  EXPECT_EQ(layout(s->read_fragments(m.meta.id, 999, 1000)), (Layout{{600, 400}}))
      << "a fragment starting far before begin still overlaps";
  EXPECT_TRUE(s->read_fragments(m.meta.id, 100, 300).empty()) << "gap";
  EXPECT_EQ(s->fragment_offsets(m.meta.id, 340, 700), (Layout{{300, 50}, {600, 400}}));
}

TEST(CacheStore, ReadMessageOnlyWhenEveryByteIsHeld) {
  auto s = Store::open(":memory:");
  const Message m(1, 2500);
  EXPECT_FALSE(s->read_message(m.meta.id)) << "unknown";
  m.put(*s, 1000, 2, 3);  // the short tail first
  EXPECT_FALSE(s->read_message(m.meta.id));
  m.put(*s, 1000, 0, 1);
  EXPECT_FALSE(s->read_message(m.meta.id)) << "gap in the middle";
  m.put(*s, 1000, 1, 2);
  const auto whole = s->read_message(m.meta.id);
  ASSERT_TRUE(whole);
  EXPECT_EQ(*whole, m.payload) << "complete by coverage, even before mark_complete";
  s->mark_complete(m.meta.id);
  EXPECT_EQ(s->read_message(m.meta.id), m.payload);
}

TEST(CacheStore, ReadMessageToleratesOverlappingFragments) {
  auto s = Store::open(":memory:");
  const Message m(1, 300);
  ASSERT_TRUE(s->put_fragment(m.meta, 0, m.part(0, 100), kT0));
  ASSERT_TRUE(s->put_fragment(m.meta, 50, m.part(50, 200), kT0));
  EXPECT_FALSE(s->read_message(m.meta.id));
  ASSERT_TRUE(s->put_fragment(m.meta, 240, m.part(240, 60), kT0));
  EXPECT_EQ(s->read_message(m.meta.id), m.payload);
  EXPECT_EQ(s->total_bytes(), 360u) << "stored bytes count what is stored, overlaps included";
}

TEST(CacheStore, EraseUpdatesTotalsAndForgetsTheMessage) {
  auto s = Store::open(":memory:");
  const Message a(1, 3000);
  const Message b(2, 1500);
  a.put(*s, 1000, 0, 3);
  b.put(*s, 1000, 0, 2);
  s->set_state("k", "v");
  EXPECT_EQ(s->total_bytes(), 4500u);
  EXPECT_EQ(s->message_count(), 2u);

  s->erase(a.meta.id);
  EXPECT_EQ(s->total_bytes(), 1500u);
  EXPECT_EQ(s->message_count(), 1u);
  EXPECT_FALSE(s->contains(a.meta.id));
  EXPECT_TRUE(s->read_fragments(a.meta.id, 0, 3000).empty());
  EXPECT_FALSE(s->read_message(a.meta.id));
  s->erase(a.meta.id);  // unknown: nothing happens
  EXPECT_EQ(s->message_count(), 1u);
  s->flush();

  // The same id can be stored again from scratch.
  a.put(*s, 1000, 0, 1);
  EXPECT_EQ(s->total_bytes(), 2500u);
  EXPECT_EQ(layout(s->read_fragments(a.meta.id, 0, 3000)).size(), 1u);
  EXPECT_EQ(s->get_state("k"), "v");
}

TEST(CacheStore, ListMessagesGivesSummariesWithoutFragments) {
  auto s = Store::open(":memory:");
  const Message a(1, 2000);
  const Message b(2, 3000);
  a.put(*s, 1000, 0, 2, /*own=*/true);
  s->mark_complete(a.meta.id);
  b.put(*s, 1000, 0, 1);
  s->touch(b.meta.id, kT0 + 1000);
  s->touch(MessageId{"nope", 1, 1}, kT0);  // unknown: ignored

  const auto list = s->list_messages();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].meta.id, a.meta.id) << "in order of arrival";
  expect_same_meta(list[0].meta, a.meta);
  EXPECT_TRUE(list[0].complete);
  EXPECT_TRUE(list[0].own);
  EXPECT_EQ(list[0].stored_bytes, 2000u);
  EXPECT_EQ(list[0].first_seen, kT0);
  EXPECT_EQ(list[0].last_used, kT0);
  EXPECT_TRUE(list[0].fragments.empty());

  EXPECT_FALSE(list[1].complete);
  EXPECT_FALSE(list[1].own);
  EXPECT_EQ(list[1].stored_bytes, 1000u);
  EXPECT_EQ(list[1].last_used, kT0 + 1000);
  EXPECT_TRUE(list[1].fragments.empty()) << "list_messages never lists fragments";
}

TEST(CacheStore, LoadIndexListsFragmentsOfIncompleteMessagesOnly) {
  auto s = Store::open(":memory:");
  const Message a(1, 2000);
  const Message b(2, 5000);
  a.put(*s, 1000, 0, 2);
  s->mark_complete(a.meta.id);
  b.put(*s, 1000, 3, 5);
  b.put(*s, 1000, 0, 1);
  const auto index = s->load_index();
  ASSERT_EQ(index.size(), 2u);
  EXPECT_TRUE(find(index, a.meta.id)->fragments.empty());
  using Layout = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_EQ(find(index, b.meta.id)->fragments, (Layout{{0, 1000}, {3000, 1000}, {4000, 1000}}));
}

TEST(CacheStore, RestartRestoresMessagesFragmentsFlagsAndState) {
  TempDb db;
  const Message own(1, 3000);
  const Message partial(2, 5000);
  const Message done(3, 1234);
  std::vector<MessageRecord> before;
  {
    auto s = Store::open(db.path());
    own.put(*s, 1000, 0, 3, /*own=*/true);
    s->set_state("pubseq/g", "1");
    s->mark_complete(own.meta.id);
    partial.put(*s, 1000, 4, 5);
    partial.put(*s, 1000, 1, 2);
    done.put(*s, 1000, 0, 2);
    s->mark_complete(done.meta.id);
    s->touch(done.meta.id, kT0 + 777);
    s->flush();
    before = s->load_index();
  }
  auto s = Store::open(db.path());
  EXPECT_EQ(s->message_count(), 3u);
  EXPECT_EQ(s->total_bytes(), 3000u + 2000u + 1234u);
  EXPECT_EQ(s->get_state("pubseq/g"), "1");

  const auto after = s->load_index();
  ASSERT_EQ(after.size(), before.size());
  for (const auto& b : before) {
    const MessageRecord* a = find(after, b.meta.id);
    ASSERT_NE(a, nullptr);
    expect_same_meta(a->meta, b.meta);
    EXPECT_EQ(a->complete, b.complete);
    EXPECT_EQ(a->own, b.own);
    EXPECT_EQ(a->stored_bytes, b.stored_bytes);
    EXPECT_EQ(a->first_seen, b.first_seen);
    EXPECT_EQ(a->last_used, b.last_used);
    EXPECT_EQ(a->fragments, b.fragments);
  }
  const MessageRecord* p = find(after, partial.meta.id);
  using Layout = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_EQ(p->fragments, (Layout{{1000, 1000}, {4000, 1000}}));
  EXPECT_TRUE(find(after, own.meta.id)->own);
  EXPECT_EQ(find(after, done.meta.id)->last_used, kT0 + 777);

  // Payloads are intact and the duplicate check still works on reloaded messages.
  EXPECT_EQ(s->read_message(own.meta.id), own.payload);
  EXPECT_EQ(s->read_message(done.meta.id), done.payload);
  EXPECT_FALSE(s->read_message(partial.meta.id));
  EXPECT_EQ(s->fragment_offsets(done.meta.id, 1000, 1001), (Layout{{1000, 234}}));
  EXPECT_FALSE(s->put_fragment(own.meta, 1000, own.part(1000, 1000), kT0));
  EXPECT_FALSE(s->put_fragment(partial.meta, 4000, partial.part(4000, 1000), kT0));
  EXPECT_EQ(s->total_bytes(), 3000u + 2000u + 1234u);

  // The partial one can be finished after the restart.
  partial.put(*s, 1000, 0, 1);
  partial.put(*s, 1000, 2, 4);
  EXPECT_EQ(s->read_message(partial.meta.id), partial.payload);
}

TEST(CacheStore, CleanShutdownWithoutFlushLosesNothing) {
  // The destructor commits: only a crash can lose unflushed writes.
  TempDb db;
  const Message m(1, 2000);
  {
    auto s = Store::open(db.path());
    m.put(*s, 1000, 0, 2);
    s->mark_complete(m.meta.id);
    s->touch(m.meta.id, kT0 + 5);
    s->set_state("node_id", "42");
  }
  auto s = Store::open(db.path());
  EXPECT_EQ(s->read_message(m.meta.id), m.payload);
  const auto list = s->list_messages();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_TRUE(list[0].complete);
  EXPECT_EQ(list[0].last_used, kT0 + 5);
  EXPECT_EQ(s->get_state("node_id"), "42");
}

TEST(CacheStore, StateValuesSurviveRestartAndCanBeOverwritten) {
  TempDb db;
  {
    auto s = Store::open(db.path());
    EXPECT_FALSE(s->get_state("pubseq/a"));
    s->set_state("pubseq/a", "1");
    s->set_state("pubseq/a", "17");
    s->set_state("pubseq/b", "");
    s->set_state("node_id", "123456");
    EXPECT_EQ(s->get_state("pubseq/a"), "17") << "visible before the commit";
    s->flush();
  }
  auto s = Store::open(db.path());
  EXPECT_EQ(s->get_state("pubseq/a"), "17");
  EXPECT_EQ(s->get_state("pubseq/b"), "");
  EXPECT_EQ(s->get_state("node_id"), "123456");
  EXPECT_FALSE(s->get_state("missing"));
}

TEST(CacheStore, FlushedWritesSurviveKillAndUnflushedOnesDoNot) {
  TempDb db;
  const Message flushed(1, 2000);
  const Message lost(2, 2000);
  in_killed_child([&] {
    auto s = Store::open(db.path());
    flushed.put(*s, 1000, 0, 2);
    s->set_state("pubseq/g", "1");
    s->mark_complete(flushed.meta.id);
    s->flush();
    lost.put(*s, 1000, 0, 2);
    s->set_state("pubseq/g", "2");
    kill_self();
  });
  auto s = Store::open(db.path());
  EXPECT_EQ(s->read_message(flushed.meta.id), flushed.payload);
  EXPECT_FALSE(s->contains(lost.meta.id));
  EXPECT_EQ(s->get_state("pubseq/g"), "1") << "state commits with the fragments it describes";
  EXPECT_EQ(s->total_bytes(), 2000u);
  ASSERT_EQ(s->list_messages().size(), 1u);
  EXPECT_TRUE(s->list_messages()[0].complete);
}

TEST(CacheStore, AutoCommitsEveryBatchFragments) {
  TempDb db;
  const Message m(1, 10 * 100);
  StoreOptions opts;
  opts.batch_fragments = 4;
  in_killed_child([&] {
    auto s = Store::open(db.path(), opts);
    m.put(*s, 100, 0, 10);  // commits after the 4th and the 8th
    kill_self();
  });
  auto s = Store::open(db.path(), opts);
  EXPECT_EQ(s->total_bytes(), 800u);
  const auto index = s->load_index();
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0].fragments.size(), 8u);
  EXPECT_EQ(index[0].stored_bytes, 800u);
  EXPECT_FALSE(index[0].complete);
}

TEST(CacheStore, RefusesNewerSchemaVersion) {
  TempDb db;
  { auto s = Store::open(db.path()); }
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(db.path().c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
  }
  try {
    Store::open(db.path());
    FAIL() << "opened a database of schema version 99";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(db.path()), std::string::npos) << e.what();
  }
}

TEST(CacheStore, DigestsPersistAndAVersion2CacheIsUpgraded) {
  TempDb db;
  const Message m(1, 3000);
  const Message late(2, 3000);
  {
    auto s = Store::open(db.path());
    MessageMeta with = m.meta;
    with.digest = 0xaaaa;
    ASSERT_TRUE(s->put_fragment(with, 0, m.part(0, 1000), kT0));
    late.put(*s, 1000, 1, 3);  // known from fragments without a digest
    s->set_digest(late.meta.id, 0xbbbb'0000'0000'0001ULL);
    s->flush();
  }
  {
    auto s = Store::open(db.path());
    const auto index = s->load_index();
    ASSERT_NE(find(index, m.meta.id), nullptr);
    EXPECT_EQ(find(index, m.meta.id)->meta.digest, 0xaaaau);
    EXPECT_EQ(find(index, late.meta.id)->meta.digest, 0xbbbb'0000'0000'0001ULL) << "all 64 bits";
  }
  dissem::test::downgrade_to_schema_2(db.path());  // the same file as version 2 wrote it
  auto s = Store::open(db.path());
  const auto index = s->load_index();
  ASSERT_EQ(index.size(), 2u);
  EXPECT_EQ(find(index, m.meta.id)->meta.digest, 0u) << "upgraded: digests start unknown";
  EXPECT_EQ(s->read_fragments(late.meta.id, 0, 3000).size(), 2u) << "data kept";
  s->set_digest(m.meta.id, 0xcccc);
  s->flush();
  s.reset();
  s = Store::open(db.path());
  EXPECT_EQ(find(s->load_index(), m.meta.id)->meta.digest, 0xccccu);
}

TEST(CacheStore, SignaturesPersistAndAVersion3CacheIsUpgraded) {
  TempDb db;
  const Message m(1, 3000);
  {
    auto s = Store::open(db.path());
    MessageMeta signed_meta = m.meta;
    signed_meta.digest = 0xaaaa;
    signed_meta.signature = std::string("\0\x01\xff", 3) + std::string(61, 's');  // any 64 bytes, NULs too
    signed_meta.key_epoch = 7;
    ASSERT_TRUE(s->put_fragment(signed_meta, 0, m.part(0, 1000), kT0));
    s->flush();
  }
  {
    auto s = Store::open(db.path());
    const auto index = s->load_index();
    const auto* rec = find(index, m.meta.id);
    ASSERT_NE(rec, nullptr);
    EXPECT_EQ(rec->meta.signature, std::string("\0\x01\xff", 3) + std::string(61, 's'));
    EXPECT_EQ(rec->meta.key_epoch, 7u);
  }
  dissem::test::downgrade_to_schema_3(db.path());  // the same file as version 3 wrote it
  auto s = Store::open(db.path());
  const auto index = s->load_index();
  const auto* rec = find(index, m.meta.id);
  ASSERT_NE(rec, nullptr);
  EXPECT_TRUE(rec->meta.signature.empty()) << "upgraded: an open-group message";
  EXPECT_EQ(rec->meta.digest, 0xaaaau) << "the digest kept";
  EXPECT_EQ(s->read_fragments(m.meta.id, 0, 3000).size(), 1u) << "data kept";
}

TEST(CacheStore, ChainLinksPersistAndAVersion4CacheIsUpgraded) {
  TempDb db;
  const Message m(1, 3000);
  const std::string signature = std::string("\0\x02", 2) + std::string(62, 'g');
  {
    auto s = Store::open(db.path());
    MessageMeta chained = m.meta;
    chained.digest = 0xaaaa;
    chained.signature = signature;
    chained.key_epoch = 3;
    chained.chain = std::string("\0\xfe", 2) + std::string(14, 'c');  // any 16 bytes, NULs too
    ASSERT_TRUE(s->put_fragment(chained, 0, m.part(0, 1000), kT0));
    s->flush();
  }
  {
    auto s = Store::open(db.path());
    const auto index = s->load_index();
    const auto* rec = find(index, m.meta.id);
    ASSERT_NE(rec, nullptr);
    EXPECT_EQ(rec->meta.chain, std::string("\0\xfe", 2) + std::string(14, 'c'));
  }
  dissem::test::downgrade_to_schema_4(db.path());  // the same file as version 4 wrote it
  auto s = Store::open(db.path());
  const auto index = s->load_index();
  const auto* rec = find(index, m.meta.id);
  ASSERT_NE(rec, nullptr);
  EXPECT_TRUE(rec->meta.chain.empty()) << "upgraded: signed without a link, as version 4 signed";
  EXPECT_EQ(rec->meta.signature, signature) << "the signature kept";
  EXPECT_EQ(rec->meta.key_epoch, 3u);
  EXPECT_EQ(s->read_fragments(m.meta.id, 0, 3000).size(), 1u) << "data kept";
}

TEST(CacheStore, SupersessionAndMillisecondExpiryPersistAndAVersion5CacheIsUpgraded) {
  TempDb db;
  const Message m(1, 3000);
  const Message plain(2, 3000);
  {
    auto s = Store::open(db.path());
    MessageMeta replacing = m.meta;
    replacing.digest = 0xaaaa;
    replacing.expiry_ms = 2'000'000'000'123;
    replacing.tag = "pos";
    replacing.replace = true;
    replacing.cancel = true;
    replacing.supersedes = {1, 3, 7, 0xffff'ffff'ffffULL};
    ASSERT_TRUE(s->put_fragment(replacing, 0, m.part(0, 1000), kT0));
    MessageMeta p = plain.meta;
    p.digest = 0xbbbb;
    p.expiry_ms = 2'000'000'000'001;
    ASSERT_TRUE(s->put_fragment(p, 0, plain.part(0, 1000), kT0));
    s->flush();
  }
  {
    auto s = Store::open(db.path());
    const auto index = s->load_index();
    const auto* rec = find(index, m.meta.id);
    ASSERT_NE(rec, nullptr);
    EXPECT_EQ(rec->meta.expiry_ms, 2'000'000'000'123u) << "to the millisecond";
    EXPECT_TRUE(rec->meta.replace);
    EXPECT_TRUE(rec->meta.cancel);
    EXPECT_EQ(rec->meta.supersedes, (std::vector<std::uint64_t>{1, 3, 7, 0xffff'ffff'ffffULL}));
    EXPECT_FALSE(find(index, plain.meta.id)->meta.replace);
    EXPECT_TRUE(find(index, plain.meta.id)->meta.supersedes.empty());
  }
  dissem::test::downgrade_to_schema_5(db.path());  // the same file as version 5 wrote it (seconds)
  auto s = Store::open(db.path());
  const auto index = s->load_index();
  const auto* rec = find(index, plain.meta.id);
  ASSERT_NE(rec, nullptr);
  EXPECT_EQ(rec->meta.expiry_ms, 2'000'000'001'000u) << "seconds became milliseconds";
  EXPECT_FALSE(find(index, m.meta.id)->meta.replace) << "version 5 knew no supersession";
  EXPECT_EQ(s->read_fragments(m.meta.id, 0, 3000).size(), 1u) << "data kept";
}

TEST(CacheStore, RefusesAForeignDatabase) {
  TempDb db;
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(db.path().c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE t (x)", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
  }
  EXPECT_THROW(Store::open(db.path()), StoreError);
}

TEST(CacheStore, OpeningInAMissingDirectoryThrowsNamingThePath) {
  const std::string path = testing::TempDir() + "no_such_dir_" + std::to_string(::getpid()) + "/cache.db";
  try {
    Store::open(path);
    FAIL() << "opened " << path;
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(path).parent_path()));
}

TEST(CacheStore, SecondStoreOnTheSameFileIsRefused) {
  // The in-memory mirror is only right if one Store owns the file.
  TempDb db;
  auto first = Store::open(db.path());
  const Message m(1, 100);
  m.put(*first, 100, 0, 1);
  first->flush();
  try {
    Store::open(db.path());
    FAIL() << "a second Store opened " << db.path();
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("in use"), std::string::npos) << e.what();
  }
  first.reset();
  EXPECT_TRUE(Store::open(db.path())->contains(m.meta.id));
}

TEST(CacheStore, RejectsInvalidOptions) {
  StoreOptions opts;
  opts.batch_fragments = 0;
  EXPECT_THROW(Store::open(":memory:", opts), StoreError);
  EXPECT_THROW(Store::open(""), StoreError);
}

TEST(CacheStore, KeepsIdBytesExactlyAcrossRestart) {
  TempDb db;
  MessageMeta meta = make_meta(std::numeric_limits<std::uint64_t>::max() - 1, 3, std::string("gr\0up\xff", 6));
  meta.id.publisher = std::numeric_limits<std::uint32_t>::max();
  meta.tag = std::string("t\0\x80", 3);
  meta.expiry_ms = std::numeric_limits<std::uint64_t>::max();
  const std::vector<std::uint8_t> payload{1, 2, 3};
  {
    auto s = Store::open(db.path(), StoreOptions{.quota_bytes = 1, .batch_fragments = 1, .sync_full = true});
    ASSERT_TRUE(s->put_fragment(meta, 0, payload, -5));
    EXPECT_EQ(s->options().quota_bytes, 1u);
    EXPECT_TRUE(s->options().sync_full);
  }
  auto s = Store::open(db.path());
  const auto list = s->list_messages();
  ASSERT_EQ(list.size(), 1u);
  expect_same_meta(list[0].meta, meta);
  EXPECT_EQ(list[0].first_seen, -5);
  EXPECT_EQ(s->read_message(meta.id), payload);
}

TEST(CacheStore, ManyMessagesAcrossBatchesStayConsistent) {
  TempDb db;
  StoreOptions opts;
  opts.batch_fragments = 7;  // commits fall in the middle of messages
  std::vector<Message> msgs;
  for (std::uint64_t seq = 1; seq <= 20; ++seq) msgs.emplace_back(seq, 10 * 140 + static_cast<std::uint32_t>(seq));
  {
    auto s = Store::open(db.path(), opts);
    for (const auto& m : msgs) {
      // Odd-numbered fragments first, then even ones: out of order.
      for (std::uint32_t pass = 0; pass < 2; ++pass)
        for (std::uint32_t i = 1 - pass; i * 140 < m.meta.total_length; i += 2) {
          const std::uint32_t off = i * 140;
          ASSERT_TRUE(s->put_fragment(m.meta, off, m.part(off, std::min(140u, m.meta.total_length - off)), kT0));
        }
      if (m.meta.id.seq % 2 == 0) s->mark_complete(m.meta.id);
    }
    for (std::uint64_t seq = 1; seq <= 20; seq += 5) s->erase(msgs[seq - 1].meta.id);
  }
  auto s = Store::open(db.path(), opts);
  std::uint64_t expected = 0;
  for (const auto& m : msgs) {
    const bool erased = (m.meta.id.seq - 1) % 5 == 0;
    EXPECT_EQ(s->contains(m.meta.id), !erased);
    if (erased) continue;
    expected += m.meta.total_length;
    EXPECT_EQ(s->read_message(m.meta.id), m.payload) << "seq " << m.meta.id.seq;
  }
  EXPECT_EQ(s->total_bytes(), expected);
  EXPECT_EQ(s->message_count(), 16u);
}

TEST(CacheStore, FailedWriteRollsBackToTheLastFlush) {
  // A hard heap limit makes SQLite fail with SQLITE_NOMEM mid-transaction:
  // the store must throw, then match what was committed.
  auto s = Store::open(":memory:");
  const Message kept(1, 2000);
  kept.put(*s, 1000, 0, 2);
  s->set_state("k", "kept");
  s->flush();

  if (sqlite3_memory_used() == 0) GTEST_SKIP() << "SQLite built without memory accounting";
  const Message big(2, 1000 * 1000);
  const sqlite3_int64 old_limit = sqlite3_hard_heap_limit64(-1);
  sqlite3_hard_heap_limit64(sqlite3_memory_used() + 256 * 1024);
  bool threw = false;
  try {
    s->set_state("k", "lost");
    for (std::uint32_t i = 0; i < 1000; ++i) s->put_fragment(big.meta, i * 1000, big.part(i * 1000, 1000), kT0);
  } catch (const StoreError& e) {
    threw = true;
    EXPECT_NE(std::string(e.what()).find(":memory:"), std::string::npos) << e.what();
  }
  sqlite3_hard_heap_limit64(old_limit);
  ASSERT_TRUE(threw) << "the heap limit did not bite";

  EXPECT_FALSE(s->contains(big.meta.id));
  EXPECT_EQ(s->total_bytes(), 2000u);
  EXPECT_EQ(s->message_count(), 1u);
  EXPECT_EQ(s->get_state("k"), "kept");
  EXPECT_EQ(s->read_message(kept.meta.id), kept.payload);
  // And the store keeps working.
  big.put(*s, 1000, 0, 3);
  s->flush();
  EXPECT_EQ(s->total_bytes(), 5000u);
}

}  // namespace cache_store_test
