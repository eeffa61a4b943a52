// Window coding across small messages: the image a message contributes, the
// window decoder (eliminating known messages, solving connected sets,
// rank), and the wire validation of window symbols and window requests.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "coding/coefficients.h"
#include "coding/linear_combination.h"
#include "coding/window_decoder.h"
#include "core/random.h"
#include "engine/coders/window_image.h"
#include "wire/codec.h"

using namespace dissem;
using namespace dissem::engine;
using engine::coding::WindowDecoder;
using dissem::wire::DecodeError;

namespace window_coding_test {
namespace {

MessageMeta meta(std::uint64_t seq, std::uint32_t length) {
  MessageMeta m;
  m.id = MessageId{"squad", 7, seq};
  m.total_length = length;
  m.priority = 3;
  m.tag = seq % 2 == 0 ? "even" : "";
  m.digest = 0xd0d0'0000 + seq;  // images carry it like the first-pass datagram
  return m;
}

std::vector<std::uint8_t> bytes_of(std::uint64_t seq, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(seq * 31 + i * 7);
  return out;
}

// Images of messages first .. first + n - 1 of various lengths.
std::vector<std::vector<std::uint8_t>> images(std::uint64_t first, std::size_t n) {
  std::vector<std::vector<std::uint8_t>> out;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t seq = first + i;
    const auto length = static_cast<std::uint32_t>(200 + (seq * 37) % 300);
    out.push_back(window_image(meta(seq, length), bytes_of(seq, length)));
  }
  return out;
}

// A window symbol over `imgs` (zero-padded to the longest) with coefficients from `seed`.
std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>> symbol(const std::vector<std::vector<std::uint8_t>>& imgs,
                                                                       std::uint32_t seed) {
  std::size_t size = 0;
  for (const auto& i : imgs) size = std::max(size, i.size());
  std::vector<std::vector<std::uint8_t>> padded;
  std::vector<const std::uint8_t*> rows;
  for (const auto& i : imgs) {
    padded.emplace_back(size, 0);
    std::copy(i.begin(), i.end(), padded.back().begin());
    rows.push_back(padded.back().data());
  }
  std::vector<std::uint8_t> coefs(imgs.size());
  engine::coding::coefficients_from_seed(seed, coefs);
  std::vector<std::uint8_t> out(size);
  engine::coding::combine(rows, coefs, size, out.data());
  return {coefs, out};
}

std::vector<std::uint64_t> seqs(std::uint64_t first, std::size_t n) {
  std::vector<std::uint64_t> s(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = first + i;
  return s;
}

}  // namespace

TEST(WindowImage, RoundTripsTheWholeMessageWithItsFields) {
  const auto m = meta(12, 300);
  const auto image = window_image(m, bytes_of(12, 300));
  auto padded = image;
  padded.resize(image.size() + 40, 0);  // as a source symbol padded to a longer window
  const auto d = parse_window_image(padded, wire::Limits{});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->group(), "squad");
  EXPECT_EQ(d->publisher(), 7u);
  EXPECT_EQ(d->seq(), 12u);
  EXPECT_EQ(d->priority(), 3u);
  EXPECT_EQ(d->tag(), "even");
  EXPECT_EQ(d->total_length(), 300u);
  const auto payload = bytes_of(12, 300);
  EXPECT_EQ(std::string(payload.begin(), payload.end()), d->payload());
}

TEST(WindowImage, RejectsCorruptionAndNonZeroPadding) {
  auto image = window_image(meta(3, 100), bytes_of(3, 100));
  auto tail = image;
  tail.push_back(1);  // padding must be zero
  EXPECT_FALSE(parse_window_image(tail, wire::Limits{}).has_value());
  auto garbled = image;
  garbled[0] = 0xff;  // length beyond the symbol
  EXPECT_FALSE(parse_window_image(garbled, wire::Limits{}).has_value());
  std::vector<std::uint8_t> junk(64, 0xa5);
  EXPECT_FALSE(parse_window_image(junk, wire::Limits{}).has_value());
}

TEST(WindowImage, OnlyMessagesWhoseImageFitsAFragmentTakePart) {
  EXPECT_TRUE(window_eligible(meta(1, 1024), 1400));
  EXPECT_FALSE(window_eligible(meta(1, 1380), 1400));  // the header does not fit beside it
  EXPECT_FALSE(window_eligible(meta(1, 5000), 1400));
  // The estimate never understates the real image.
  for (std::uint32_t len : {1u, 100u, 127u, 128u, 1000u, 1340u}) {
    const auto m = meta(99999, len);
    const std::size_t real = window_image(m, bytes_of(1, len)).size();
    EXPECT_EQ(window_eligible(m, static_cast<std::uint32_t>(real)), true) << len;
    EXPECT_EQ(window_eligible(m, static_cast<std::uint32_t>(real - 1)), false) << len;
  }
}

TEST(WindowDecoder, OneSymbolRecoversTheOneMessageLostInItsWindow) {
  const auto imgs = images(10, 8);
  const auto [coefs, payload] = symbol(imgs, 42);
  WindowDecoder d;
  d.add(seqs(10, 8), coefs, payload);
  for (std::uint64_t s = 10; s < 18; ++s)
    if (s != 13) d.on_source(s, imgs[s - 10]);
  EXPECT_EQ(d.unknowns(), std::vector<std::uint64_t>{13});
  const auto rec = d.solve();
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0].seq, 13u);
  const auto parsed = parse_window_image(rec[0].image, wire::Limits{});
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->seq(), 13u);
  EXPECT_TRUE(d.empty());
}

TEST(WindowDecoder, DifferentLossesAtDifferentReceiversFromTheSameSymbols) {
  // Two symbols over 16 messages repair any two losses: the point of coding
  // across messages.
  const auto imgs = images(1, 16);
  const auto a = symbol(imgs, 1);
  const auto b = symbol(imgs, 2);
  for (const auto& lost : {std::vector<std::uint64_t>{2, 9}, std::vector<std::uint64_t>{1, 16}, std::vector<std::uint64_t>{5}}) {
    WindowDecoder d;
    d.add(seqs(1, 16), a.first, a.second);
    d.add(seqs(1, 16), b.first, b.second);
    for (std::uint64_t s = 1; s <= 16; ++s)
      if (std::find(lost.begin(), lost.end(), s) == lost.end()) d.on_source(s, imgs[s - 1]);
    auto rec = d.solve();
    ASSERT_EQ(rec.size(), lost.size());
    for (const auto& r : rec) {
      const auto& want = imgs[r.seq - 1];
      EXPECT_TRUE(std::equal(want.begin(), want.end(), r.image.begin())) << r.seq;
      EXPECT_TRUE(std::all_of(r.image.begin() + static_cast<std::ptrdiff_t>(want.size()), r.image.end(),
                              [](std::uint8_t x) { return x == 0; }));
    }
  }
}

TEST(WindowDecoder, WaitsForSourcesThenSolvesSeparateSetsOnTheirOwn) {
  const auto first = images(1, 4);   // messages 1..4
  const auto second = images(20, 4); // messages 20..23
  const auto s1 = symbol(first, 5);
  const auto s2 = symbol(second, 6);
  WindowDecoder d;
  d.add(seqs(1, 4), s1.first, s1.second);
  d.add(seqs(20, 4), s2.first, s2.second);
  d.on_source(1, first[0]);
  d.on_source(2, first[1]);
  EXPECT_TRUE(d.solve().empty());  // 3 and 4 unknown, one equation
  EXPECT_EQ(d.rank_within(1, 4), 1u);
  EXPECT_EQ(d.rank_within(1, 23), 2u);
  EXPECT_EQ(d.rank_within(3, 4), 1u);  // what is left of it involves 3 and 4 only
  EXPECT_EQ(d.rank_within(4, 30), 1u);  // the second equation alone
  d.on_source(3, first[2]);            // arrives late, by another path
  for (std::uint64_t s = 20; s < 23; ++s) d.on_source(s, second[s - 20]);
  auto rec = d.solve();
  ASSERT_EQ(rec.size(), 2u);
  std::sort(rec.begin(), rec.end(), [](const auto& x, const auto& y) { return x.seq < y.seq; });
  EXPECT_EQ(rec[0].seq, 4u);
  EXPECT_EQ(rec[1].seq, 23u);
  EXPECT_TRUE(d.empty());
}

TEST(WindowDecoder, AnImageLongerThanTheSymbolDropsTheEquationAndMemoryIsBounded) {
  const auto imgs = images(1, 3);
  const auto s = symbol(imgs, 9);
  WindowDecoder d;
  d.add(seqs(1, 3), s.first, s.second);
  std::vector<std::uint8_t> huge(s.second.size() + 1, 1);
  d.on_source(2, huge);
  EXPECT_TRUE(d.empty());
  for (std::size_t i = 0; i < WindowDecoder::kMaxEquations + 10; ++i) d.add(seqs(1, 3), s.first, s.second);
  EXPECT_EQ(d.equations(), WindowDecoder::kMaxEquations);
  d.forget_before(2);
  EXPECT_TRUE(d.empty());
}

TEST(WireWindow, ValidSymbolsAndRequestsPassBadOnesAreRejected) {
  wire::WindowSymbol w;
  w.set_group("g");
  w.set_publisher(3);
  w.set_first_seq(5);
  w.set_count(16);
  w.set_seed(77);
  w.set_payload(std::string(100, 'x'));
  wire::Decoded out;
  EXPECT_FALSE(wire::decode(wire::encode(w), wire::Limits{}, out).has_value());
  EXPECT_EQ(out.kind, wire::Kind::Window);
  EXPECT_EQ(out.window.count(), 16u);

  auto bad = w;
  bad.set_count(65);
  EXPECT_EQ(wire::decode(wire::encode(bad), wire::Limits{}, out), DecodeError::BadRange);
  bad = w;
  bad.set_count(0);
  EXPECT_EQ(wire::decode(wire::encode(bad), wire::Limits{}, out), DecodeError::BadRange);
  bad = w;
  bad.set_excluded(std::string("\xff\xff", 2));  // every message excluded
  EXPECT_EQ(wire::decode(wire::encode(bad), wire::Limits{}, out), DecodeError::BadRange);
  bad = w;
  bad.set_excluded(std::string(3, '\0'));  // longer than the window
  EXPECT_EQ(wire::decode(wire::encode(bad), wire::Limits{}, out), DecodeError::BadRange);
  bad = w;
  bad.set_first_seq(UINT64_MAX - 3);  // the window would wrap
  EXPECT_EQ(wire::decode(wire::encode(bad), wire::Limits{}, out), DecodeError::BadRange);

  wire::MissingFragmentRequest r;
  r.set_requester(9);
  auto* pw = r.add_wants();
  pw->set_group("g");
  pw->set_publisher(3);
  auto* need = pw->add_windows();
  need->set_first_seq(5);
  need->set_count(10);
  need->set_deficit(3);
  EXPECT_FALSE(wire::decode(wire::encode(r), wire::Limits{}, out).has_value());
  need->set_deficit(11);  // more than the window holds
  EXPECT_EQ(wire::decode(wire::encode(r), wire::Limits{}, out), DecodeError::BadRange);
  need->set_deficit(0);
  EXPECT_EQ(wire::decode(wire::encode(r), wire::Limits{}, out), DecodeError::BadRange);
}

}  // namespace window_coding_test
