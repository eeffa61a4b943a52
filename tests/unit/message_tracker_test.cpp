// What a node knows of messages and streams (engine/message_tracker.h):
// reassembly and its outcomes, reassembly buffers, settled sequence numbers,
// known-missing messages (gaps, history, beacons, summaries), the bounds on
// hostile hearsay, and which byte ranges are worth requesting (missing_ranges).
#include "engine/message_tracker.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

namespace dissem::engine::message_tracker_test {
namespace {

const StreamId kS{"g", 1};
const StreamId kOther{"g", 2};

MessageId id(std::uint64_t seq, const StreamId& s = kS) { return {s.group, s.publisher, seq}; }

MessageMeta meta(std::uint64_t seq, std::uint32_t length = 100, std::uint64_t digest = 1,
                 const StreamId& s = kS) {
  MessageMeta m;
  m.id = id(seq, s);
  m.total_length = length;
  m.digest = digest;
  return m;
}

using Seqs = std::vector<std::uint64_t>;

// The stream's incomplete (including known-missing) sequence numbers, ascending.
Seqs missing(MessageTracker& t, const StreamId& s = kS) {
  Seqs out;
  t.for_each_incomplete([&](const MessageId& m, MessageState&) {
    if (stream_of(m) == s) out.push_back(m.seq);
  });
  return out;
}

std::vector<std::uint8_t> bytes(std::size_t n) {
  std::vector<std::uint8_t> b(n);
  std::iota(b.begin(), b.end(), std::uint8_t{1});
  return b;
}

// --- reassembly ---------------------------------------------------------------

TEST(MessageTrackerUnit, FragmentsReassembleInAnyOrderAndCompleteOnce) {
  MessageTracker t(10);
  EXPECT_EQ(t.on_fragment(meta(1), 50, 50, 10), FragmentOutcome::New);
  const MessageState* st = t.find(id(1));
  ASSERT_NE(st, nullptr);
  EXPECT_FALSE(st->complete);
  EXPECT_EQ(st->have.covered(), 50u);
  EXPECT_EQ(st->fragments, 1u);
  EXPECT_EQ(t.incomplete_count(), 1u);
  EXPECT_FALSE(t.settled(id(1)));
  EXPECT_EQ(t.stream(kS)->data_newest, 1u);

  EXPECT_EQ(t.on_fragment(meta(1), 0, 50, 20), FragmentOutcome::Completed);
  EXPECT_TRUE(st->complete);
  EXPECT_TRUE(st->have.empty()) << "cleared once complete";
  EXPECT_EQ(t.incomplete_count(), 0u);
  EXPECT_TRUE(t.settled(id(1)));
  EXPECT_EQ(t.stream(kS)->newest, 1u);
  // Complete is settled: anything more of it is refused as such.
  EXPECT_EQ(t.on_fragment(meta(1), 0, 50, 30), FragmentOutcome::Settled);
  EXPECT_EQ(t.on_fragment(meta(1), 0, 100, 30), FragmentOutcome::Settled);
  EXPECT_EQ(st->fragments, 2u);
  std::vector<MessageId> complete;
  t.for_each_complete([&](const MessageMeta& m) { complete.push_back(m.id); });
  EXPECT_EQ(complete, std::vector<MessageId>{id(1)});
}

TEST(MessageTrackerUnit, AFragmentAddingNoNewByteIsADuplicate) {
  MessageTracker t(10);
  EXPECT_EQ(t.on_fragment(meta(1), 0, 40, 10), FragmentOutcome::New);
  EXPECT_EQ(t.on_fragment(meta(1), 10, 20, 20), FragmentOutcome::Duplicate);
  const MessageState* st = t.find(id(1));
  EXPECT_EQ(st->fragments, 1u) << "a duplicate is no arrival";
  EXPECT_EQ(st->last_arrival, 10);
  EXPECT_EQ(t.on_fragment(meta(1), 30, 30, 30), FragmentOutcome::New) << "partly new";
  EXPECT_EQ(st->have.covered(), 60u);
  EXPECT_EQ(st->fragments, 2u);
  EXPECT_EQ(st->last_arrival, 30);
  EXPECT_EQ(st->first_seen, 10);
}

TEST(MessageTrackerUnit, ALengthOrDigestContradictingTheKnownOneIsDroppedAndCounted) {
  MessageTracker t(10);
  ASSERT_EQ(t.on_fragment(meta(1, 100, 5), 0, 10, 0), FragmentOutcome::New);
  EXPECT_EQ(t.on_fragment(meta(1, 200, 5), 10, 10, 0), FragmentOutcome::LengthConflict);
  EXPECT_EQ(t.on_fragment(meta(1, 100, 6), 10, 10, 0), FragmentOutcome::DigestConflict);
  EXPECT_EQ(t.on_symbol(meta(1, 100, 6), 0, true), FragmentOutcome::DigestConflict);
  const MessageState* st = t.find(id(1));
  EXPECT_EQ(st->conflicts, 3u);
  EXPECT_EQ(st->have.covered(), 10u) << "nothing of the conflicting fragments kept";
  EXPECT_EQ(st->meta->total_length, 100u);
  EXPECT_EQ(st->meta->digest, 5u);
  // A fragment not naming a digest does not contradict one.
  EXPECT_EQ(t.on_fragment(meta(1, 100, 0), 10, 90, 0), FragmentOutcome::Completed);
  // A contradiction of a complete message is counted as such, not as a duplicate.
  EXPECT_EQ(t.on_fragment(meta(1, 99, 5), 0, 10, 0), FragmentOutcome::LengthConflict);
  EXPECT_EQ(t.on_fragment(meta(1, 100, 7), 0, 10, 0), FragmentOutcome::DigestConflict);
  EXPECT_EQ(st->conflicts, 5u);
}

TEST(MessageTrackerUnit, AnUnknownDigestIsLearntThenHeldTo) {
  MessageTracker t(10);
  ASSERT_EQ(t.on_fragment(meta(1, 100, 0), 0, 10, 0), FragmentOutcome::New);
  EXPECT_EQ(t.find(id(1))->meta->digest, 0u);
  EXPECT_EQ(t.on_fragment(meta(1, 100, 7), 10, 10, 0), FragmentOutcome::New);
  EXPECT_EQ(t.find(id(1))->meta->digest, 7u);
  EXPECT_EQ(t.on_fragment(meta(1, 100, 8), 20, 10, 0), FragmentOutcome::DigestConflict);
}

TEST(MessageTrackerUnit, ASettledMessageTakesNoMoreData) {
  MessageTracker t(10);
  t.settle(id(3));  // given up before anything of it arrived
  EXPECT_TRUE(t.settled(id(3)));
  EXPECT_EQ(t.find(id(3)), nullptr);
  EXPECT_EQ(t.on_fragment(meta(3), 0, 10, 0), FragmentOutcome::Settled);
  EXPECT_EQ(t.on_symbol(meta(3), 0, true), FragmentOutcome::Settled);
  EXPECT_EQ(t.find(id(3)), nullptr);
  EXPECT_EQ(t.incomplete_count(), 0u);
  // Giving up a partial message forgets it and never asks for it again.
  ASSERT_EQ(t.on_fragment(meta(4), 0, 10, 0), FragmentOutcome::New);
  t.settle(id(4));
  EXPECT_EQ(t.find(id(4)), nullptr);
  EXPECT_EQ(t.incomplete_count(), 0u);
  EXPECT_EQ(t.on_fragment(meta(4), 10, 90, 0), FragmentOutcome::Settled);
  EXPECT_FALSE(t.settled(id(5)));
}

TEST(MessageTrackerUnit, WhenFullOfDataNewDataIsOverloaded) {
  MessageTracker t(1);
  ASSERT_EQ(t.on_fragment(meta(1), 0, 10, 0), FragmentOutcome::New);
  EXPECT_EQ(t.on_fragment(meta(2), 0, 10, 0), FragmentOutcome::Overloaded);
  EXPECT_EQ(t.on_symbol(meta(2), 0, true), FragmentOutcome::Overloaded);
  EXPECT_EQ(t.find(id(2)), nullptr);
  EXPECT_EQ(t.hearsay_displaced(), 0u);
  // A complete message no longer counts against the limit.
  ASSERT_EQ(t.on_fragment(meta(1), 10, 90, 0), FragmentOutcome::Completed);
  EXPECT_EQ(t.on_fragment(meta(2), 0, 10, 0), FragmentOutcome::New);
}

TEST(MessageTrackerUnit, DataDisplacesTheOldestHearsayButHearsayDisplacesNothing) {
  MessageTracker t(2);
  t.learn_available(kS, {{1, 2}}, 10, 10);
  t.learn_available(kS, {{2, 3}}, 20, 20);
  ASSERT_EQ(t.incomplete_count(), 2u);
  t.learn_available(kS, {{3, 4}}, 30, 30);
  EXPECT_EQ(t.find(id(3)), nullptr);
  EXPECT_EQ(t.hearsay_refused(), 1u);
  EXPECT_EQ(t.on_fragment(meta(10), 0, 10, 40), FragmentOutcome::New);
  EXPECT_EQ(t.hearsay_displaced(), 1u);
  EXPECT_EQ(t.find(id(1)), nullptr) << "the oldest hearsay went";
  EXPECT_NE(t.find(id(2)), nullptr);
  EXPECT_FALSE(t.settled(id(1))) << "forgotten, not given up: may be learnt again";
  // Hearsay that has seen data is no longer hearsay: not displaced.
  ASSERT_EQ(t.on_fragment(meta(2), 0, 10, 50), FragmentOutcome::New);
  EXPECT_EQ(t.on_fragment(meta(11), 0, 10, 60), FragmentOutcome::Overloaded);
  EXPECT_EQ(t.hearsay_displaced(), 1u);
  EXPECT_EQ(t.incomplete_count(), 2u);
}

TEST(MessageTrackerUnit, ASymbolTracksTheMessageWithoutAddingBytes) {
  MessageTracker t(10);
  EXPECT_EQ(t.on_symbol(meta(1), 100, true), FragmentOutcome::New);
  const MessageState* st = t.find(id(1));
  ASSERT_NE(st, nullptr);
  ASSERT_NE(st->meta, nullptr);
  EXPECT_TRUE(st->have.empty());
  EXPECT_EQ(st->fragments, 1u);
  EXPECT_EQ(st->first_seen, 100);
  EXPECT_EQ(st->last_arrival, 100);
  EXPECT_EQ(t.stream(kS)->data_newest, 1u);
  // A repair is not an arrival for tail detection...
  EXPECT_EQ(t.on_symbol(meta(1), 200, false), FragmentOutcome::New);
  EXPECT_EQ(st->fragments, 1u);
  EXPECT_EQ(st->last_arrival, 100);
  // ...the publisher's proactive symbols are.
  EXPECT_EQ(t.on_symbol(meta(1), 300, true), FragmentOutcome::New);
  EXPECT_EQ(st->fragments, 2u);
  EXPECT_EQ(st->last_arrival, 300);
  // A repair as the very first data of a message counts once.
  EXPECT_EQ(t.on_symbol(meta(2), 50, false), FragmentOutcome::New);
  EXPECT_EQ(t.find(id(2))->fragments, 1u);
  EXPECT_EQ(t.find(id(2))->first_seen, 50);
  // Of a complete (hence settled) message: refused, nothing counted.
  ASSERT_EQ(t.on_fragment(meta(3), 0, 100, 0), FragmentOutcome::Completed);
  EXPECT_EQ(t.on_symbol(meta(3), 10, true), FragmentOutcome::Settled);
  EXPECT_EQ(t.find(id(3))->fragments, 1u);
}

TEST(MessageTrackerUnit, OnlyNewBytesOrProgressResetTheRequestBackoff) {
  MessageTracker t(10);
  ASSERT_EQ(t.on_fragment(meta(1), 0, 10, 0), FragmentOutcome::New);
  MessageState* st = t.find(id(1));
  auto backed_off = [&] {
    st->request.level = 3;
    st->request.next_eligible = 5000;
  };
  backed_off();
  t.on_symbol(meta(1), 100, true);
  EXPECT_EQ(st->request.level, 3u) << "a symbol alone is not progress";
  EXPECT_EQ(st->request.next_eligible, 5000);
  t.on_fragment(meta(1), 0, 10, 100);  // duplicate
  EXPECT_EQ(st->request.level, 3u);
  t.note_progress(id(1));
  EXPECT_EQ(st->request.level, 0u);
  EXPECT_EQ(st->request.next_eligible, 0);
  backed_off();
  t.on_fragment(meta(1), 10, 10, 200);
  EXPECT_EQ(st->request.level, 0u);
  EXPECT_EQ(st->request.next_eligible, 0);
  t.note_progress(id(9));  // unknown: nothing happens
  EXPECT_EQ(t.find(id(9)), nullptr);
}

// --- reassembly buffers -------------------------------------------------------

TEST(MessageTrackerUnit, ABufferIsKeptWithinTheBudgetAndHandedOverWhenComplete) {
  MessageTracker t(10, 150);
  const auto p = bytes(100);
  ASSERT_EQ(t.on_fragment(meta(1), 0, 50, 0, p.data(), true), FragmentOutcome::New);
  EXPECT_EQ(t.buffered_bytes(), 100u) << "the whole message is reserved at once";
  EXPECT_EQ(t.find(id(1))->buffer.size(), 100u);
  ASSERT_EQ(t.on_fragment(meta(2), 0, 50, 0, p.data(), true), FragmentOutcome::New);
  EXPECT_TRUE(t.find(id(2))->buffer.empty()) << "over the budget: read back from the cache instead";
  EXPECT_EQ(t.buffered_bytes(), 100u);
  EXPECT_TRUE(t.take_buffer(id(1)).empty()) << "not complete yet";
  EXPECT_EQ(t.buffered_bytes(), 100u);
  ASSERT_EQ(t.on_fragment(meta(1), 50, 50, 0, p.data() + 50, true), FragmentOutcome::Completed);
  EXPECT_EQ(t.take_buffer(id(1)), p);
  EXPECT_EQ(t.buffered_bytes(), 0u);
  EXPECT_TRUE(t.take_buffer(id(1)).empty()) << "handed over once";
  EXPECT_EQ(t.buffered_bytes(), 0u);
  EXPECT_TRUE(t.take_buffer(id(77)).empty());
  // The freed budget is available again.
  ASSERT_EQ(t.on_fragment(meta(3), 50, 50, 0, p.data() + 50, true), FragmentOutcome::New);
  EXPECT_EQ(t.buffered_bytes(), 100u);
}

TEST(MessageTrackerUnit, ABufferIsOnlyStartedByAMessagesFirstFragment) {
  MessageTracker t(10, 1000);
  const auto p = bytes(100);
  ASSERT_EQ(t.on_fragment(meta(1), 0, 50, 0), FragmentOutcome::New);  // not buffered
  ASSERT_EQ(t.on_fragment(meta(1), 50, 50, 0, p.data() + 50, true), FragmentOutcome::Completed);
  EXPECT_EQ(t.buffered_bytes(), 0u) << "it would have a gap to back-fill";
  EXPECT_TRUE(t.take_buffer(id(1)).empty());
  // Payload without `buffered`, or `buffered` without payload: nothing kept.
  ASSERT_EQ(t.on_fragment(meta(2), 0, 50, 0, p.data(), false), FragmentOutcome::New);
  ASSERT_EQ(t.on_fragment(meta(3), 0, 50, 0, nullptr, true), FragmentOutcome::New);
  EXPECT_EQ(t.buffered_bytes(), 0u);
  EXPECT_TRUE(t.find(id(2))->buffer.empty());
  EXPECT_TRUE(t.find(id(3))->buffer.empty());
}

TEST(MessageTrackerUnit, GivingUpOrReopeningAMessageReleasesItsBuffer) {
  MessageTracker t(10, 1000);
  const auto p = bytes(100);
  ASSERT_EQ(t.on_fragment(meta(1), 0, 50, 0, p.data(), true), FragmentOutcome::New);
  ASSERT_EQ(t.on_fragment(meta(2), 0, 100, 0, p.data(), true), FragmentOutcome::Completed);
  EXPECT_EQ(t.buffered_bytes(), 200u);
  t.settle(id(1));
  EXPECT_EQ(t.buffered_bytes(), 100u);
  t.reopen(id(2));
  EXPECT_EQ(t.buffered_bytes(), 0u);
  EXPECT_TRUE(t.take_buffer(id(2)).empty());
}

// --- reopen and restore -------------------------------------------------------

TEST(MessageTrackerUnit, AReopenedMessageIsMissingAgainWithUnknownMetadata) {
  MessageTracker t(10);
  ASSERT_EQ(t.on_fragment(meta(1, 100, 5), 0, 100, 50), FragmentOutcome::Completed);
  t.hold_new_requests_until(10'000);
  t.reopen(id(1));
  const MessageState* st = t.find(id(1));
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->meta, nullptr);
  EXPECT_FALSE(st->complete);
  EXPECT_TRUE(st->have.empty());
  EXPECT_EQ(st->fragments, 0u);
  EXPECT_EQ(st->request.next_eligible, 0) << "requested at once, whatever the hold";
  EXPECT_EQ(st->first_seen, 50);
  EXPECT_FALSE(t.settled(id(1)));
  EXPECT_EQ(missing(t), (Seqs{1}));
  // What contradicted it before is welcome now.
  EXPECT_EQ(t.on_fragment(meta(1, 100, 9), 0, 100, 60), FragmentOutcome::Completed);
  EXPECT_EQ(t.find(id(1))->meta->digest, 9u);
  // Reopening what is not known does nothing.
  t.reopen(id(2));
  EXPECT_EQ(t.find(id(2)), nullptr);
  EXPECT_EQ(t.incomplete_count(), 0u);
}

TEST(MessageTrackerUnit, RestoreRebuildsCompleteAndPartialMessages) {
  MessageTracker t(10);
  t.restore(meta(5), true, {}, 10);
  EXPECT_TRUE(t.settled(id(5)));
  ASSERT_NE(t.find(id(5)), nullptr);
  EXPECT_TRUE(t.find(id(5))->complete);
  EXPECT_EQ(t.incomplete_count(), 0u);
  EXPECT_EQ(t.stream(kS)->baseline, 5u);
  EXPECT_EQ(t.stream(kS)->newest, 5u);
  t.restore(meta(3), false, {{0, 10}, {20, 10}}, 20);
  const MessageState* st = t.find(id(3));
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->have.ranges(), (std::vector<ByteRanges::Range>{{0, 10}, {20, 30}}));
  EXPECT_EQ(st->first_seen, 20);
  EXPECT_EQ(missing(t), (Seqs{3}));
  EXPECT_EQ(t.stream(kS)->baseline, 3u) << "nothing older than what was held";
  EXPECT_EQ(t.stream(kS)->newest, 5u);
  EXPECT_EQ(t.on_fragment(meta(3), 10, 10, 30), FragmentOutcome::New);
  EXPECT_EQ(t.on_fragment(meta(3), 0, 30, 30), FragmentOutcome::Duplicate);
  EXPECT_EQ(t.on_fragment(meta(3), 30, 70, 30), FragmentOutcome::Completed);
  // Restoring does not make anything between them missing.
  EXPECT_FALSE(t.settled(id(4)));
  EXPECT_EQ(t.find(id(4)), nullptr);
}

// --- sequence numbers: gaps, history, beacons, summaries ----------------------

TEST(MessageTrackerUnit, GapsFromTheBaselineBecomeMissingMessages) {
  MessageTracker t(100);
  // Message 10 is being received, 3 prior asked for: baseline 7.
  t.learn_newest(kS, 10, true, 3, false, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 7u);
  EXPECT_EQ(missing(t), (Seqs{7, 8, 9})) << "10 itself is arriving";
  EXPECT_EQ(t.stream(kS)->newest, 10u);
  // A beacon claims 12 exists.
  t.learn_newest(kS, 12, true, 3, true, 0);
  EXPECT_EQ(missing(t), (Seqs{7, 8, 9, 11, 12}));
  EXPECT_EQ(t.stream(kS)->baseline, 7u) << "set on first contact only";
  // An older claim changes nothing.
  t.learn_newest(kS, 4, true, 3, true, 0);
  EXPECT_EQ(missing(t), (Seqs{7, 8, 9, 11, 12}));
  EXPECT_EQ(t.stream(kS)->newest, 12u);
}

TEST(MessageTrackerUnit, AStreamNotWantedOnlyRecordsItsNewest) {
  MessageTracker t(100);
  t.learn_newest(kS, 10, false, 3, true, 0);
  ASSERT_NE(t.stream(kS), nullptr);
  EXPECT_EQ(t.stream(kS)->newest, 10u);
  EXPECT_EQ(t.stream(kS)->baseline, 0u);
  EXPECT_EQ(t.incomplete_count(), 0u);
}

TEST(MessageTrackerUnit, TheBaselineIsNeverBelowOne) {
  MessageTracker t(100);
  t.learn_newest(kS, 2, true, 100, true, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 1u);
  EXPECT_EQ(missing(t), (Seqs{1, 2}));
  MessageTracker u(100);
  u.learn_newest(kS, 5, true, 5, true, 0);
  EXPECT_EQ(u.stream(kS)->baseline, 1u) << "seq == history";
  EXPECT_EQ(missing(u), (Seqs{1, 2, 3, 4, 5}));
}

TEST(MessageTrackerUnit, SettledSequenceNumbersAreNotMissing) {
  MessageTracker t(100);
  t.learn_newest(kS, 1, true, 0, true, 0);
  ASSERT_EQ(t.on_fragment(meta(1), 0, 100, 0), FragmentOutcome::Completed);
  t.settle(id(3));
  t.learn_newest(kS, 5, true, 0, true, 0);
  EXPECT_EQ(missing(t), (Seqs{2, 4, 5}));
}

TEST(MessageTrackerUnit, ALongJumpTracksOnlyThe1024NewestMessages) {
  MessageTracker t(100'000);
  t.learn_newest(kS, 1, true, 0, true, 0);
  t.learn_newest(kS, 5000, true, 0, true, 0);
  EXPECT_EQ(t.incomplete_count(), 1u + 1024u);
  EXPECT_EQ(t.find(id(3976)), nullptr);
  EXPECT_NE(t.find(id(3977)), nullptr);
  EXPECT_NE(t.find(id(5000)), nullptr);
  EXPECT_EQ(t.stream(kS)->newest, 5000u);
}

// A beacon may claim seq == UINT64_MAX (node_receive.cpp only skips seq 0).
// The walks up to the newest number stop there rather than wrapping to 0 and
// tracking 0, 1, 2, ... until the tracker is full, below the stream's
// baseline where expire_hearsay() would keep them as real gaps (found by
// these tests; learn_newest and want_from were `q <= last` loops).
TEST(MessageTrackerUnit, AClaimOfTheLargestSequenceNumberDoesNotWrapAround) {
  MessageTracker t(20'000);
  t.learn_newest(kS, UINT64_MAX, true, 0, true, 0);
  EXPECT_LE(t.incomplete_count(), 1024u);
  EXPECT_EQ(t.find(id(0)), nullptr) << "sequence number 0 never exists";
  EXPECT_EQ(t.find(id(1)), nullptr);
}

TEST(MessageTrackerUnit, AClaimOfTheLargestSequenceNumberLeavesAStreamsPastAlone) {
  MessageTracker t(20'000);
  // A stream we receive from 100 on, complete up to 200.
  t.learn_newest(kS, 100, true, 0, false, 0);
  for (std::uint64_t q = 100; q <= 200; ++q) ASSERT_EQ(t.on_fragment(meta(q), 0, 100, 0), FragmentOutcome::Completed);
  ASSERT_EQ(t.incomplete_count(), 0u);
  t.learn_newest(kS, UINT64_MAX, true, 0, true, 0);
  t.expire_hearsay(1);  // the claim is hearsay: all of it may go
  EXPECT_EQ(t.find(id(99)), nullptr) << "below the baseline: never wanted";
  EXPECT_EQ(t.incomplete_count(), 0u);
}

TEST(MessageTrackerUnit, WantFromAStreamClaimedAtTheLargestSequenceNumberDoesNotWrapAround) {
  MessageTracker t(20'000);
  t.learn_newest(kS, UINT64_MAX, false, 0, true, 0);  // not wanted yet: only the newest recorded
  ASSERT_EQ(t.incomplete_count(), 0u);
  t.want_from(kS, UINT64_MAX - 1, 0);
  EXPECT_LE(t.incomplete_count(), 2u);
  EXPECT_EQ(t.find(id(0)), nullptr);
}

TEST(MessageTrackerUnit, ExtendHistoryMovesTheBaselineDown) {
  MessageTracker t(100);
  t.extend_history(kS, 5, 0);
  EXPECT_EQ(t.stream(kS), nullptr) << "unknown stream: nothing created";
  t.learn_newest(kOther, 10, false, 0, true, 0);
  t.extend_history(kOther, 5, 0);
  EXPECT_EQ(t.incomplete_count(), 0u) << "no baseline: not wanted";

  t.learn_newest(kS, 10, true, 0, false, 0);  // baseline 10
  ASSERT_EQ(t.on_fragment(meta(10), 0, 100, 0), FragmentOutcome::Completed);
  t.extend_history(kS, 0, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 10u);
  t.settle(id(8));
  t.extend_history(kS, 3, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 7u);
  EXPECT_EQ(missing(t), (Seqs{7, 9}));
  t.extend_history(kS, 1000, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 1u);
  EXPECT_EQ(missing(t), (Seqs{1, 2, 3, 4, 5, 6, 7, 9}));
}

TEST(MessageTrackerUnit, ExtendHistoryIsBoundedPerCall) {
  MessageTracker t(100'000);
  t.learn_newest(kS, 1'000'000, true, 0, true, 0);
  ASSERT_EQ(t.incomplete_count(), 1u);
  t.extend_history(kS, UINT32_MAX, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 1u);
  EXPECT_LE(t.incomplete_count(), 1u + 1024u);
  EXPECT_GT(t.incomplete_count(), 1u);
}

TEST(MessageTrackerUnit, WantFromMakesAKnownStreamsMessagesMissing) {
  MessageTracker t(100);
  t.want_from(kS, 1, 0);
  EXPECT_EQ(t.stream(kS), nullptr);
  t.learn_newest(kS, 10, false, 0, true, 0);  // heard before subscribing
  t.want_from(kS, 0, 0);
  EXPECT_EQ(t.incomplete_count(), 0u) << "0 is no sequence number";
  t.want_from(kS, 8, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 8u);
  EXPECT_EQ(missing(t), (Seqs{8, 9, 10}));
  t.settle(id(6));
  t.want_from(kS, 5, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 5u);
  EXPECT_EQ(missing(t), (Seqs{5, 7, 8, 9, 10}));
  t.want_from(kS, 9, 0);
  EXPECT_EQ(t.stream(kS)->baseline, 5u) << "the baseline only moves down";
}

TEST(MessageTrackerUnit, WantFromIsBoundedToTheNewest1024) {
  MessageTracker t(100'000);
  t.learn_newest(kS, 1'000'000, false, 0, true, 0);
  t.want_from(kS, 1, 0);
  EXPECT_EQ(t.incomplete_count(), 1024u);
  EXPECT_NE(t.find(id(1'000'000)), nullptr);
  EXPECT_EQ(t.find(id(1)), nullptr);
}

TEST(MessageTrackerUnit, WhatAPeerHoldsBecomesMissingNotBeforeTheGivenTime) {
  MessageTracker t(100);
  t.learn_available(kS, {}, 0, 500);
  EXPECT_EQ(t.stream(kS), nullptr) << "nothing held: nothing learnt";
  ASSERT_EQ(t.on_fragment(meta(4), 0, 10, 0), FragmentOutcome::New);  // partial, eligible at once
  ASSERT_EQ(t.on_fragment(meta(9), 0, 100, 0), FragmentOutcome::Completed);
  t.find(id(4))->request.next_eligible = 900;
  t.settle(id(5));
  t.learn_available(kS, {{3, 6}, {8, 11}}, 10, 500);
  EXPECT_EQ(missing(t), (Seqs{3, 4, 8, 10}));
  EXPECT_EQ(t.find(id(3))->request.next_eligible, 500);
  EXPECT_EQ(t.find(id(8))->request.next_eligible, 500);
  EXPECT_EQ(t.find(id(4))->request.next_eligible, 900) << "a later eligibility stands";
  EXPECT_EQ(t.stream(kS)->baseline, 3u);
  EXPECT_EQ(t.stream(kS)->newest, 10u);
  t.find(id(4))->request.next_eligible = 0;
  t.learn_available(kS, {{1, 2}, {4, 5}}, 20, 700);
  EXPECT_EQ(t.find(id(4))->request.next_eligible, 700) << "already missing: held back too";
  EXPECT_EQ(t.stream(kS)->baseline, 1u);
  EXPECT_EQ(t.stream(kS)->newest, 10u) << "never moves back";
}

TEST(MessageTrackerUnit, WhatAPeerHoldsAddsAtMost1024ItemsPerCall) {
  MessageTracker t(100'000);
  t.learn_available(kS, {{1, 1'000'000}, {2'000'000, 2'000'010}}, 0, 0);
  EXPECT_EQ(t.incomplete_count(), 1024u);
  EXPECT_EQ(t.stream(kS)->newest, 2'000'009u);
}

// learn_available() bounds the new items it tracks (1,024) and skips a
// settled stretch in one step: a beacon in an open group that claims newest
// = 2^62, ends the stream below it (ended_below <= newest + 1 passes
// on_ended_below's check) and says it caches from oldest = 1 makes
// handle_beacon call learn_available({{1, 2^62 + 1}}) over 2^62 settled
// numbers, which used to be walked one by one (found by this test: it hung).
TEST(MessageTrackerUnit, WhatAPeerHoldsOfASettledStretchCostsBoundedWork) {
  MessageTracker t(100'000);
  const std::uint64_t claim = std::uint64_t{1} << 62;
  t.learn_newest(kS, claim, true, 0, true, 0);
  t.settle_below(kS, claim + 1);
  t.learn_available(kS, {{1, claim + 1}}, 0, 0);
  EXPECT_EQ(t.incomplete_count(), 0u);
}

TEST(MessageTrackerUnit, SettleBelowEndsTheIncompleteMessagesBelowTheMark) {
  MessageTracker t(100);
  t.learn_available(kS, {{1, 8}}, 0, 0);
  t.learn_available(kOther, {{1, 4}}, 0, 0);
  ASSERT_EQ(t.on_fragment(meta(3), 0, 100, 0), FragmentOutcome::Completed);
  EXPECT_TRUE(t.settle_below(kS, 1).empty());
  EXPECT_TRUE(t.settle_below(kS, 0).empty());
  EXPECT_EQ(missing(t), (Seqs{1, 2, 4, 5, 6, 7}));
  const auto ended = t.settle_below(kS, 5);
  EXPECT_EQ(ended, (std::vector<MessageId>{id(1), id(2), id(4)})) << "the complete 3 is not returned";
  EXPECT_EQ(missing(t), (Seqs{5, 6, 7}));
  for (std::uint64_t q = 1; q < 5; ++q) EXPECT_TRUE(t.settled(id(q))) << q;
  EXPECT_FALSE(t.settled(id(5)));
  EXPECT_EQ(t.find(id(1)), nullptr);
  EXPECT_EQ(missing(t, kOther), (Seqs{1, 2, 3})) << "another publisher's stream is its own";
  EXPECT_TRUE(t.settle_below(StreamId{"h", 1}, 10).empty());
}

// --- hostile hearsay ----------------------------------------------------------

TEST(MessageTrackerUnit, ExpiredHearsayBeyondTheStreamsDataIsForgotten) {
  MessageTracker t(100);
  t.learn_newest(kS, 5, true, 4, false, 0);  // 5 arriving, 1..4 missing
  ASSERT_EQ(t.on_fragment(meta(5), 0, 10, 0), FragmentOutcome::New);
  t.learn_newest(kS, 9, true, 4, true, 0);   // hearsay: 6..9
  t.learn_available(kS, {{10, 11}}, 100, 100);
  ASSERT_EQ(missing(t), (Seqs{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(t.stream(kS)->newest, 10u);
  EXPECT_EQ(t.expire_hearsay(0), 0u) << "strictly before";
  EXPECT_EQ(t.expire_hearsay(50), 4u);
  EXPECT_EQ(missing(t), (Seqs{1, 2, 3, 4, 5, 10})) << "gaps below what data showed are real";
  EXPECT_EQ(t.stream(kS)->newest, 10u);
  EXPECT_EQ(t.expire_hearsay(101), 1u);
  EXPECT_EQ(missing(t), (Seqs{1, 2, 3, 4, 5}));
  EXPECT_EQ(t.stream(kS)->newest, 5u) << "rolled back to what is still known";
  EXPECT_EQ(t.expire_hearsay(1'000'000), 0u) << "the real gaps never expire";
  EXPECT_FALSE(t.settled(id(7))) << "forgotten, not given up";
}

TEST(MessageTrackerUnit, ExpiringHearsayRollsTheNewestBackAndDropsEmptyStreams) {
  MessageTracker t(2000);
  t.learn_newest(kS, 2, true, 0, false, 0);
  ASSERT_EQ(t.on_fragment(meta(2), 0, 100, 0), FragmentOutcome::Completed);
  t.learn_newest(kS, 1'000'000, true, 0, true, 10);  // a forged claim
  EXPECT_EQ(t.stream(kS)->newest, 1'000'000u);
  t.learn_newest(kOther, 50, true, 0, true, 10);     // an invented publisher
  ASSERT_NE(t.stream(kOther), nullptr);
  EXPECT_EQ(t.expire_hearsay(11), 1024u + 1u);
  EXPECT_EQ(t.stream(kS)->newest, 2u) << "back to what data showed";
  EXPECT_EQ(t.incomplete_count(), 0u);
  EXPECT_EQ(t.stream(kOther), nullptr) << "nothing left of it";
  // Gap detection works again from there.
  t.learn_newest(kS, 4, true, 0, false, 20);
  EXPECT_EQ(missing(t), (Seqs{3}));
}

TEST(MessageTrackerUnit, HearsayCreatesAtMostMaxStreamsStreamsButDataAlways) {
  MessageTracker t(100, 0, 1);
  t.learn_newest(kS, 3, true, 0, true, 0);
  ASSERT_NE(t.stream(kS), nullptr);
  t.learn_newest(kOther, 3, true, 0, true, 0);
  EXPECT_EQ(t.stream(kOther), nullptr);
  EXPECT_EQ(t.hearsay_refused(), 1u);
  t.learn_available(kOther, {{1, 3}}, 0, 0);
  EXPECT_EQ(t.stream(kOther), nullptr);
  EXPECT_EQ(t.hearsay_refused(), 2u);
  EXPECT_TRUE(missing(t, kOther).empty());
  // A fragment being received is data: its stream is created.
  t.learn_newest(kOther, 3, true, 0, false, 0);
  ASSERT_NE(t.stream(kOther), nullptr);
  EXPECT_EQ(t.on_fragment(meta(3, 100, 1, StreamId{"h", 9}), 0, 10, 0), FragmentOutcome::New);
  EXPECT_NE(t.stream(StreamId{"h", 9}), nullptr);
  EXPECT_EQ(t.hearsay_refused(), 2u);
}

TEST(MessageTrackerUnit, HearsayIsRefusedWhenTheTrackerIsFull) {
  MessageTracker t(3);
  t.learn_newest(kS, 10, true, 0, true, 0);
  t.learn_newest(kS, 20, true, 0, true, 0);
  EXPECT_EQ(t.incomplete_count(), 3u);
  EXPECT_GE(t.hearsay_refused(), 1u);
  EXPECT_EQ(missing(t), (Seqs{10, 11, 12}));
}

// --- request scheduling state -------------------------------------------------

TEST(MessageTrackerUnit, NewItemsAreHeldUntilTheLatestHold) {
  MessageTracker t(100);
  t.learn_available(kS, {{1, 2}}, 0, 0);  // before any hold
  t.hold_new_requests_until(1000);
  t.hold_new_requests_until(800);  // an earlier hold does not shorten it
  t.learn_available(kS, {{2, 3}}, 500, 0);
  EXPECT_EQ(t.find(id(1))->request.next_eligible, 0) << "already tracked: not held";
  EXPECT_EQ(t.find(id(2))->request.next_eligible, 1000);
  t.learn_newest(kS, 4, true, 0, true, 999);
  EXPECT_EQ(t.find(id(4))->request.next_eligible, 1000);
  t.learn_newest(kS, 5, true, 0, true, 1000);
  EXPECT_EQ(t.find(id(5))->request.next_eligible, 0) << "the hold is over";
}

TEST(MessageTrackerUnit, ResetBackoffAllMakesEveryIncompleteItemEligible) {
  MessageTracker t(100);
  t.learn_available(kS, {{1, 3}}, 0, 900);
  ASSERT_EQ(t.on_fragment(meta(3), 0, 100, 0), FragmentOutcome::Completed);
  t.find(id(3))->request.level = 4;  // complete: not an item any more
  t.for_each_incomplete([](const MessageId&, MessageState& st) { st.request.level = 5; });
  t.reset_backoff_all(50);
  for (std::uint64_t q : {1u, 2u}) {
    EXPECT_EQ(t.find(id(q))->request.level, 0u);
    EXPECT_EQ(t.find(id(q))->request.next_eligible, 50);
  }
  EXPECT_EQ(t.find(id(3))->request.level, 4u);
  t.reset_backoff_all();
  EXPECT_EQ(t.find(id(1))->request.next_eligible, 0);
}

TEST(MessageTrackerUnit, IncompleteMessagesAreVisitedInAStableOrder) {
  MessageTracker t(100);
  t.learn_available(StreamId{"b", 2}, {{5, 6}}, 0, 0);
  t.learn_available(StreamId{"a", 9}, {{2, 3}}, 0, 0);
  t.learn_available(StreamId{"b", 1}, {{7, 8}}, 0, 0);
  t.learn_available(StreamId{"a", 9}, {{1, 2}}, 0, 0);
  std::vector<MessageId> order;
  t.for_each_incomplete([&](const MessageId& m, MessageState&) { order.push_back(m); });
  const std::vector<MessageId> want{{"a", 9, 1}, {"a", 9, 2}, {"b", 1, 7}, {"b", 2, 5}};
  EXPECT_EQ(order, want);
}

// --- missing_ranges -----------------------------------------------------------

MessageState partial(std::uint32_t total, std::vector<std::pair<std::uint32_t, std::uint32_t>> have,
                     std::uint32_t fragments, Micros first, Micros last) {
  MessageState st;
  st.meta = std::make_unique<MessageMeta>(meta(1, total));
  for (const auto& [b, e] : have) st.have.add(b, e);
  st.fragments = fragments;
  st.first_seen = first;
  st.last_arrival = last;
  return st;
}

using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

TEST(MessageTrackerUnit, AnUnknownMessageIsMissingWhole) {
  MessageState none;
  auto m = missing_ranges(none, 0, 0);
  EXPECT_TRUE(m.whole);
  EXPECT_FALSE(m.empty());
  EXPECT_TRUE(m.ranges.empty());
  MessageState meta_only = partial(1000, {}, 1, 0, 0);  // a symbol told us its metadata
  EXPECT_TRUE(missing_ranges(meta_only, 0, 0).whole);
}

TEST(MessageTrackerUnit, InteriorGapsAreAlwaysMissingTheTailOnlyAfterSilence) {
  const MessageState st = partial(1000, {{0, 100}, {200, 300}}, 2, 0, 100);
  auto m = missing_ranges(st, 100, 1000);
  EXPECT_FALSE(m.whole);
  EXPECT_EQ(m.ranges, (Pairs{{100, 200}}));
  EXPECT_EQ(missing_ranges(st, 1099, 1000).ranges, (Pairs{{100, 200}})) << "one microsecond short";
  EXPECT_EQ(missing_ranges(st, 1100, 1000).ranges, (Pairs{{100, 200}, {300, 1000}}));
  EXPECT_EQ(missing_ranges(st, 1100, 1000, 200).ranges, (Pairs{{100, 200}, {300, 500}})) << "a chunk at a time";
  EXPECT_EQ(missing_ranges(st, 1100, 1000, 700).ranges, (Pairs{{100, 200}, {300, 1000}})) << "exactly the rest";
}

TEST(MessageTrackerUnit, ASlowPublishersTailWaitsFourMeanGaps) {
  // Three arrivals over 2 ms: a mean gap of 1 ms, so 4 ms of silence.
  const MessageState st = partial(1000, {{0, 300}}, 3, 0, 2000);
  EXPECT_TRUE(missing_ranges(st, 2000 + 3999, 1000).empty());
  EXPECT_EQ(missing_ranges(st, 2000 + 4000, 1000).ranges, (Pairs{{300, 1000}}));
  // A longer tail timeout dominates the mean gap.
  EXPECT_TRUE(missing_ranges(st, 2000 + 4000, 5000).empty());
  EXPECT_EQ(missing_ranges(st, 2000 + 5000, 5000).ranges, (Pairs{{300, 1000}}));
}

TEST(MessageTrackerUnit, NothingIsMissingOfAMessageHeldToItsEnd) {
  const MessageState st = partial(1000, {{0, 1000}}, 1, 0, 0);
  EXPECT_TRUE(missing_ranges(st, 1'000'000, 0).empty());
  const MessageState head_lost = partial(1000, {{500, 1000}}, 1, 0, 0);
  EXPECT_EQ(missing_ranges(head_lost, 0, 1'000'000).ranges, (Pairs{{0, 500}})) << "a gap, not a tail";
}

}  // namespace
}  // namespace dissem::engine::message_tracker_test
