// A cache that cannot write (a full disk): the node pauses (or evicts by
// policy), loses nothing it had committed, and resumes once writes go
// through (engine/cache_outage.h). The disk here is a Store that refuses
// writes past a byte capacity; the daemon's test on a real tmpfs is
// emulation/tests/test_full_disk.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/store.h"
#include "engine/cache_outage.h"
#include "engine/node.h"
#include "support/node_harness.h"
#include "support/test_time.h"

namespace cache_outage_test {
namespace {

using dissem::MessageId;
using dissem::MessageMeta;
using dissem::Micros;
using dissem::kMillis;
using dissem::kSeconds;
using dissem::cache::Store;
using dissem::cache::StoreError;
using dissem::engine::CacheFullPolicy;
using dissem::engine::CacheOutage;
using dissem::engine::Event;
using dissem::engine::Node;

// A disk of `capacity` payload bytes: a fragment that would not fit, and any
// other write while it is full, fails as SQLite's SQLITE_FULL does, before
// anything is written (every fragment is committed at once: batch 1).
class SmallDisk final : public Store {
 public:
  explicit SmallDisk(std::uint64_t* capacity) : capacity_(capacity) {
    dissem::cache::StoreOptions o;
    o.batch_fragments = 1;
    inner_ = Store::open(":memory:", o);
  }
  bool put_fragment(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload, Micros now,
                    bool own) override {
    if (inner_->total_bytes() + payload.size() > *capacity_) refuse();
    return inner_->put_fragment(meta, offset, payload, now, own);
  }
  std::vector<dissem::cache::Fragment> read_fragments(const MessageId& id, std::uint32_t begin,
                                                      std::uint32_t end) override {
    return inner_->read_fragments(id, begin, end);
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> fragment_offsets(const MessageId& id, std::uint32_t begin,
                                                                       std::uint32_t end) override {
    return inner_->fragment_offsets(id, begin, end);
  }
  std::optional<std::vector<std::uint8_t>> read_message(const MessageId& id) override {
    return inner_->read_message(id);
  }
  void mark_complete(const MessageId& id) override { inner_->mark_complete(id); }
  void set_digest(const MessageId& id, std::uint64_t digest) override { inner_->set_digest(id, digest); }
  void touch(const MessageId& id, Micros now) override { inner_->touch(id, now); }
  bool contains(const MessageId& id) override { return inner_->contains(id); }
  void flush() override {
    if (full()) refuse();
    inner_->flush();
  }
  std::vector<dissem::MessageRecord> load_index() override { return inner_->load_index(); }
  std::vector<dissem::MessageRecord> list_messages() override { return inner_->list_messages(); }
  void erase(const MessageId& id) override { inner_->erase(id); }
  std::uint64_t total_bytes() const override { return inner_->total_bytes(); }
  std::uint64_t message_count() const override { return inner_->message_count(); }
  const dissem::cache::StoreOptions& options() const override { return inner_->options(); }
  std::optional<std::string> get_state(const std::string& key) override { return inner_->get_state(key); }
  void set_state(const std::string& key, const std::string& value) override {
    if (inner_->total_bytes() + value.size() > *capacity_) refuse();
    inner_->set_state(key, value);
  }
  void erase_state(const std::string& key) override { inner_->erase_state(key); }
  std::vector<std::pair<std::string, std::string>> states_with_prefix(const std::string& prefix) override {
    return inner_->states_with_prefix(prefix);
  }

 private:
  bool full() const { return inner_->total_bytes() >= *capacity_; }
  [[noreturn]] static void refuse() { throw StoreError("cache store 'small-disk': database or disk is full"); }

  std::uint64_t* capacity_;
  std::unique_ptr<Store> inner_;
};

struct Pair {
  explicit Pair(std::uint64_t* capacity, CacheFullPolicy policy) {
    auto config = dissem::test::fast_config(2);
    config.cache_full = policy;
    publisher = std::make_unique<Node>(dissem::test::fast_config(1), Store::open(":memory:"), kT0);
    receiver = std::make_unique<Node>(config, std::make_unique<SmallDisk>(capacity), kT0);
    receiver->subscribe("g", {}, kT0);
  }
  // Both nodes' datagrams to the other, for `span` of virtual time.
  void run(Micros span) {
    const Micros end = now + span;
    while (now < end) {
      for (auto [from, to] : {std::pair{publisher.get(), receiver.get()}, std::pair{receiver.get(), publisher.get()}}) {
        from->on_timer(now);
        while (auto d = from->poll_datagram(now)) to->on_datagram(d->bytes, now);
      }
      while (auto d = receiver->poll_delivery()) delivered.push_back(std::move(d->payload));
      while (auto e = receiver->poll_event()) events.push_back(e->kind);
      now += 5 * kMillis;
    }
  }
  std::size_t count(Event::Kind kind) const { return static_cast<std::size_t>(std::count(events.begin(), events.end(), kind)); }

  Micros now = kT0;
  std::unique_ptr<Node> publisher;
  std::unique_ptr<Node> receiver;
  std::vector<std::vector<std::uint8_t>> delivered;
  std::vector<Event::Kind> events;
};

TEST(CacheOutage, PausesDoublingUpToThirtySecondsAndCapsTheCacheOnlyWhenEvicting) {
  CacheOutage paused;
  EXPECT_TRUE(paused.write_failed("full", 1000, CacheFullPolicy::Pause, kT0));
  EXPECT_EQ(paused.next_probe(), kT0 + kSeconds);
  EXPECT_FALSE(paused.write_failed("full", 1000, CacheFullPolicy::Pause, kT0 + kSeconds));
  EXPECT_EQ(paused.next_probe(), kT0 + 3 * kSeconds);
  for (int i = 0; i < 10; ++i) paused.write_failed("full", 1000, CacheFullPolicy::Pause, kT0);
  EXPECT_EQ(paused.next_probe(), kT0 + CacheOutage::kLongestPause);
  EXPECT_EQ(paused.quota_cap(), UINT64_MAX);
  EXPECT_TRUE(paused.write_succeeded(kT0 + kSeconds));
  EXPECT_FALSE(paused.next_probe().has_value());
  const auto news = paused.take_news();
  ASSERT_EQ(news.size(), 2u);
  EXPECT_TRUE(news[0].began);
  EXPECT_EQ(news[0].error, "full");
  EXPECT_FALSE(news[1].began);

  // Failing again within a minute of the end: the pause goes on growing.
  EXPECT_TRUE(paused.write_failed("full", 1000, CacheFullPolicy::Pause, kT0 + 2 * kSeconds));
  EXPECT_EQ(paused.next_probe(), kT0 + 2 * kSeconds + CacheOutage::kLongestPause);
  paused.write_succeeded(kT0 + 3 * kSeconds);
  EXPECT_TRUE(paused.write_failed("full", 1000, CacheFullPolicy::Pause, kT0 + 70 * kSeconds));
  EXPECT_EQ(paused.next_probe(), kT0 + 71 * kSeconds);

  CacheOutage evicting;
  evicting.write_failed("full", 1000, CacheFullPolicy::Evict, kT0);
  EXPECT_EQ(evicting.quota_cap(), 900u);
  EXPECT_EQ(evicting.next_probe(), kT0);  // room is made at once
}

TEST(CacheOutage, AFullDiskPausesReceivingAndTheTransferCompletesOnceSpaceReturns) {
  std::uint64_t capacity = 4000;  // a third of the message
  Pair p(&capacity, CacheFullPolicy::Pause);
  const auto payload = dissem::test::bytes_of(12'000, 3);
  p.publisher->publish(dissem::test::request("g", payload), p.now);
  p.run(3 * kSeconds);

  const auto& s = p.receiver->stats();
  EXPECT_TRUE(s.cache_paused);
  EXPECT_GE(s.cache_write_failures, 1u);
  EXPECT_GE(s.fragments_unstored, 1u);
  EXPECT_EQ(p.count(Event::Kind::CacheWriteFailed), 1u);
  EXPECT_TRUE(p.delivered.empty());
  EXPECT_LE(p.receiver->store().total_bytes(), capacity);
  // Publishing needs the cache too: refused with a message that says why.
  try {
    p.receiver->publish(dissem::test::request("g", dissem::test::bytes_of(2000, 1)), p.now);
    ADD_FAILURE() << "a publication on a full cache went through";
  } catch (const dissem::engine::PublishError& e) {
    EXPECT_NE(std::string(e.what()).find("disk is full"), std::string::npos) << e.what();
  }

  capacity = 1 << 20;  // space returns
  p.run(40 * kSeconds);
  EXPECT_FALSE(p.receiver->stats().cache_paused);
  EXPECT_EQ(p.count(Event::Kind::CacheResumed), 1u);
  ASSERT_EQ(p.delivered.size(), 1u);
  EXPECT_EQ(p.delivered[0], payload);
  // What was published after the outage carries on as usual.
  p.receiver->publish(dissem::test::request("g", dissem::test::bytes_of(2000, 1)), p.now);
}

TEST(CacheOutage, UnderTheEvictPolicyTheDeletionControllerMakesRoomAndReceivingGoesOn) {
  std::uint64_t capacity = 9000;
  Pair p(&capacity, CacheFullPolicy::Evict);
  const auto first = dissem::test::bytes_of(5000, 1);
  const auto second = dissem::test::bytes_of(6000, 2);
  p.publisher->publish(dissem::test::request("g", first), p.now);
  p.run(2 * kSeconds);
  ASSERT_EQ(p.delivered.size(), 1u);
  p.publisher->publish(dissem::test::request("g", second), p.now);
  p.run(20 * kSeconds);

  const auto& s = p.receiver->stats();
  EXPECT_GE(s.cache_write_failures, 1u);
  EXPECT_GE(s.messages_evicted, 1u);  // the first message, delivered and least recently used
  EXPECT_FALSE(s.cache_paused);
  ASSERT_EQ(p.delivered.size(), 2u);
  EXPECT_EQ(p.delivered[1], second);
  EXPECT_LE(p.receiver->store().total_bytes(), capacity);
}

}  // namespace

}  // namespace cache_outage_test
