// The entry sizes of wire/control_entry_sizes.h against the real encoding:
// a frame built from random entries, each counted by its size, never encodes
// to more than the count (so a frame built within a budget fits it), and a
// FrameBudget takes exactly what fits.
#include <gtest/gtest.h>

#include <string>

#include "core/random.h"
#include "wire/codec.h"
#include "wire/control_entry_sizes.h"

namespace dissem::wire::control_entry_sizes_test {
namespace {

// Numbers of every encoded width, not just small ones.
std::uint64_t any_number(Random& rng) {
  const auto bits = rng.uniform_int(0, 63);
  return rng.next() >> (63 - bits);
}

std::string any_group(Random& rng) {
  // Up to the longest group name allowed (255): lengths above 127 take a
  // two-byte length prefix.
  return std::string(static_cast<std::size_t>(rng.uniform_int(1, 255)), 'g');
}

constexpr int kTrials = 2000;

TEST(ControlEntrySizes, AnMfrNeverEncodesToMoreThanItsEntriesCount) {
  Random rng(11);
  for (int t = 0; t < kTrials; ++t) {
    const std::size_t limit = static_cast<std::size_t>(rng.uniform_int(128, 16383));
    MissingFragmentRequest m;
    m.set_requester(static_cast<std::uint32_t>(rng.next()));
    std::size_t counted = mfr_header_size();
    for (int p = 0, publishers = static_cast<int>(rng.uniform_int(1, 4)); p < publishers; ++p) {
      auto* w = m.add_wants();
      w->set_group(any_group(rng));
      w->set_publisher(static_cast<std::uint32_t>(rng.next()));
      counted += mfr_publisher_size(w->group(), limit);
      for (int i = 0, messages = static_cast<int>(rng.uniform_int(1, 5)); i < messages; ++i) {
        auto* mw = w->add_messages();
        mw->set_seq(any_number(rng));
        const auto shape = rng.uniform_int(0, 2);  // whole, ranges, blocks
        counted += mfr_message_size(mw->seq(), shape == 1, limit);
        for (int r = 0; shape == 1 && r < 4; ++r) {
          const auto begin = static_cast<std::uint32_t>(any_number(rng) >> 32);
          const auto end = begin + static_cast<std::uint32_t>(rng.uniform_int(1, 100000));
          mw->add_ranges(begin);
          mw->add_ranges(end);
          counted += mfr_range_size(begin, end);
        }
        for (int b = 0; shape == 2 && b < 3; ++b) {
          auto* need = mw->add_blocks();
          need->set_block(static_cast<std::uint32_t>(rng.uniform_int(0, 100000)));
          need->set_deficit(static_cast<std::uint32_t>(rng.uniform_int(1, 255)));
          counted += mfr_block_need_size(*need, limit);
        }
      }
    }
    if (counted > limit) continue;  // a builder would not have made it
    ASSERT_LE(encode(m).size(), counted) << "trial " << t;
  }
}

TEST(ControlEntrySizes, WindowEntriesAreCountedWhole) {
  Random rng(12);
  for (int t = 0; t < kTrials; ++t) {
    MissingFragmentRequest m;
    m.set_requester(1);
    auto* w = m.add_wants();
    w->set_group(any_group(rng));
    w->set_publisher(7);
    auto* need = w->add_windows();
    need->set_first_seq(any_number(rng));
    need->set_count(static_cast<std::uint32_t>(rng.uniform_int(1, 64)));
    need->set_deficit(static_cast<std::uint32_t>(rng.uniform_int(1, 64)));
    need->set_held(std::string((need->count() + 7) / 8, '\x55'));
    ASSERT_LE(encode(m).size(), mfr_header_size() + mfr_window_entry_size(*w, 1400));
  }
}

TEST(ControlEntrySizes, BeaconEntriesNeverEncodeToMoreThanCounted) {
  Random rng(13);
  for (int t = 0; t < kTrials; ++t) {
    Beacon b;
    b.set_node(static_cast<std::uint32_t>(rng.next()));
    b.set_sent_us(any_number(rng));
    b.set_seq(static_cast<std::uint32_t>(rng.uniform_int(1, 1000000)));
    std::size_t counted = encoded_size(b);
    for (int i = 0, n = static_cast<int>(rng.uniform_int(0, 4)); i < n; ++i) {
      auto* e = b.add_newest();
      e->set_group(any_group(rng));
      e->set_publisher(static_cast<std::uint32_t>(rng.next()));
      e->set_seq(any_number(rng) | 1);
      if (rng.chance(0.5)) e->set_oldest(any_number(rng));
      if (rng.chance(0.5)) e->set_group_ref(static_cast<std::uint32_t>(any_number(rng)));
      if (rng.chance(0.5)) e->set_ended_below(any_number(rng));
      counted += beacon_newest_size(e->group(), e->seq(), e->oldest(), e->group_ref(), e->ended_below());
    }
    for (int i = 0, n = static_cast<int>(rng.uniform_int(0, 4)); i < n; ++i) {
      auto* r = b.add_reception();
      r->set_publisher(static_cast<std::uint32_t>(rng.next()));
      r->set_loss_permille(static_cast<std::uint32_t>(rng.uniform_int(0, 1000)));
      counted += beacon_reception_size();
    }
    for (int i = 0, n = static_cast<int>(rng.uniform_int(0, 4)); i < n; ++i) {
      auto* w = b.add_interests();
      w->set_group(any_group(rng));
      w->set_distance(static_cast<std::uint32_t>(rng.uniform_int(0, 300)));
      if (w->distance() > 0) w->set_via(static_cast<std::uint32_t>(rng.next()) | 1);
      w->set_subscriber(static_cast<std::uint32_t>(rng.next()));
      counted += beacon_interest_size(w->group(), w->distance(), w->via() != 0);
    }
    ASSERT_LE(encode(b).size(), counted) << "trial " << t;
  }
}

TEST(ControlEntrySizes, ASummaryNeverEncodesToMoreThanCounted) {
  Random rng(14);
  for (int t = 0; t < kTrials; ++t) {
    const std::size_t limit = static_cast<std::size_t>(rng.uniform_int(64, 65000));
    Summary s;
    s.set_node(static_cast<std::uint32_t>(rng.next()));
    s.set_reply(rng.chance(0.5));
    std::size_t counted = summary_header_size();
    for (int i = 0, n = static_cast<int>(rng.uniform_int(0, 4)); i < n; ++i) {
      s.add_wants(any_group(rng));
      counted += summary_want_size(s.wants(i));
    }
    for (int i = 0, n = static_cast<int>(rng.uniform_int(0, 4)); i < n; ++i) {
      auto* h = s.add_streams();
      h->set_group(any_group(rng));
      h->set_publisher(static_cast<std::uint32_t>(rng.next()));
      std::size_t held = 0;
      for (int r = 0, ranges = static_cast<int>(rng.uniform_int(1, 6)); r < ranges; ++r) {
        const auto begin = any_number(rng) >> 1;
        const auto end = begin + static_cast<std::uint64_t>(rng.uniform_int(1, 1000));
        h->add_held(begin);
        h->add_held(end);
        held += packed_pair(begin, end);
      }
      counted += summary_stream_size(h->group(), held, limit);
    }
    if (counted > limit) continue;
    ASSERT_LE(encode(s).size(), counted) << "trial " << t;
  }
}

TEST(ControlEntrySizes, SmallEntriesAreCountedWithoutSlackBeyondTheLengthPrefix) {
  // The bounds are tight where it matters: a short group's MFR entry is
  // counted at most one byte per nested length above its real size.
  MissingFragmentRequest m;
  m.set_requester(9);
  auto* w = m.add_wants();
  w->set_group("ops");
  w->set_publisher(3);
  w->add_messages()->set_seq(5);
  const std::size_t counted = mfr_header_size() + mfr_publisher_size("ops", 1400) + mfr_message_size(5, false, 1400);
  const std::size_t real = encode(m).size();
  EXPECT_LE(real, counted);
  EXPECT_LE(counted - real, 2u);
}

TEST(FrameBudget, TakesWhatFitsAndNothingElse) {
  FrameBudget budget(100, 10);
  EXPECT_TRUE(budget.fits(90));
  EXPECT_FALSE(budget.fits(91));
  EXPECT_FALSE(budget.take(91));
  EXPECT_EQ(budget.used(), 10u);
  EXPECT_TRUE(budget.take(60));
  EXPECT_EQ(budget.used(), 70u);
  EXPECT_TRUE(budget.take(30));
  EXPECT_FALSE(budget.take(1));
  EXPECT_EQ(budget.used(), budget.limit());
}

TEST(FieldSizes, MatchProtobufsEncoding) {
  for (std::uint64_t v : {0ull, 1ull, 127ull, 128ull, 16383ull, 16384ull, ~0ull}) {
    WindowNeed n;
    n.set_first_seq(v);
    EXPECT_EQ(n.ByteSizeLong(), v == 0 ? 0 : varint_field(v)) << v;
  }
  for (std::size_t len : {1u, 127u, 128u, 255u}) {
    Interest i;
    i.set_group(std::string(len, 'x'));
    EXPECT_EQ(i.ByteSizeLong(), bytes_field(len)) << len;
  }
}

}  // namespace
}  // namespace dissem::wire::control_entry_sizes_test
