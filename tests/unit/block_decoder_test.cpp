// The coding primitives: seeded coefficients, combinations through ISA-L
// checked against ISA-L's scalar multiply, and the block decoder (rank,
// decoding from any k innovative symbols, recoding by partial holders).
#include <gtest/gtest.h>

#include <isa-l/erasure_code.h>

#include <algorithm>
#include <vector>

#include "coding/block_decoder.h"
#include "coding/coefficients.h"
#include "coding/linear_combination.h"
#include "core/random.h"

using namespace dissem;
using namespace dissem::engine::coding;

namespace block_decoder_test {
namespace {

std::vector<std::vector<std::uint8_t>> random_block(std::size_t k, std::size_t size, Random& rng) {
  std::vector<std::vector<std::uint8_t>> rows(k, std::vector<std::uint8_t>(size));
  for (auto& r : rows)
    for (auto& b : r) b = static_cast<std::uint8_t>(rng.next());
  return rows;
}

// A coded symbol of `rows` with coefficients from `seed`.
std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>> coded(const std::vector<std::vector<std::uint8_t>>& rows,
                                                                      std::uint32_t seed) {
  std::vector<std::uint8_t> coefs(rows.size());
  coefficients_from_seed(seed, coefs);
  std::vector<const std::uint8_t*> ptrs;
  for (const auto& r : rows) ptrs.push_back(r.data());
  std::vector<std::uint8_t> out(rows.front().size());
  combine(ptrs, coefs, out.size(), out.data());
  return {coefs, out};
}

void expect_decoded(BlockDecoder& d, const std::vector<std::vector<std::uint8_t>>& rows) {
  ASSERT_TRUE(d.complete());
  d.decode();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_TRUE(d.has_source(i)) << i;
    const auto s = d.source(i);
    ASSERT_TRUE(std::equal(s.begin(), s.end(), rows[i].begin(), rows[i].end())) << "source " << i;
  }
}

}  // namespace

TEST(Coding, SeededCoefficientsAreDeterministicAndNonZero) {
  std::vector<std::uint8_t> a(255), b(255), c(255);
  coefficients_from_seed(7, a);
  coefficients_from_seed(7, b);
  coefficients_from_seed(8, c);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_TRUE(std::none_of(a.begin(), a.end(), [](std::uint8_t x) { return x == 0; }));
}

TEST(Coding, CombinationsMatchScalarFieldArithmetic) {
  Random rng(3);
  for (std::size_t k : {1u, 2u, 5u, 64u}) {
    for (std::size_t len : {1u, 15u, 33u, 1400u}) {
      const auto rows = random_block(k, len, rng);
      const auto [coefs, out] = coded(rows, static_cast<std::uint32_t>(k * 1000 + len));
      for (std::size_t j = 0; j < len; ++j) {
        std::uint8_t expect = 0;
        for (std::size_t i = 0; i < k; ++i) expect ^= gf_mul(coefs[i], rows[i][j]);
        ASSERT_EQ(out[j], expect) << "k " << k << " len " << len << " byte " << j;
      }
    }
  }
}

TEST(Coding, DecodesFromAnyMixOfSourcesAndCodedSymbols) {
  Random rng(11);
  for (std::size_t k : {1u, 2u, 7u, 64u}) {
    for (std::size_t size : {1u, 333u, 1400u}) {
      for (int trial = 0; trial < 6; ++trial) {
        const auto rows = random_block(k, size, rng);
        BlockDecoder d(k, size);
        // Each source arrives with probability 1/2, then coded symbols until full.
        for (std::size_t i = 0; i < k; ++i) {
          if (rng.chance(0.5)) {
            EXPECT_TRUE(d.add_source(i, rows[i]));
          }
        }
        std::uint32_t seed = static_cast<std::uint32_t>(trial * 7919 + k);
        int sent = 0;
        while (!d.complete() && sent < static_cast<int>(k) + 20) {
          const auto [coefs, data] = coded(rows, seed++);
          d.add_coded(coefs, data);
          ++sent;
        }
        expect_decoded(d, rows);
        EXPECT_EQ(d.rank(), k);
      }
    }
  }
}

TEST(Coding, DecodesFromCodedSymbolsAloneAndAShortLastSource) {
  Random rng(5);
  const std::size_t k = 64, size = 1400;
  auto rows = random_block(k, size, rng);
  // The last source is 200 bytes long: padded with zeros to the symbol size.
  std::fill(rows.back().begin() + 200, rows.back().end(), 0);
  BlockDecoder d(k, size);
  for (std::uint32_t s = 100; !d.complete(); ++s) {
    const auto [coefs, data] = coded(rows, s);
    d.add_coded(coefs, data);
    ASSERT_LT(s, 200u) << "64 random symbols should almost always have full rank";
  }
  const auto recovered = d.decode();
  EXPECT_EQ(recovered.size(), k);
  expect_decoded(d, rows);
  EXPECT_TRUE(d.decode().empty()) << "decode is idempotent";
  BlockDecoder short_source(3, 10);
  const std::vector<std::uint8_t> four{1, 2, 3, 4};
  EXPECT_TRUE(short_source.add_source(2, four));
  EXPECT_EQ(short_source.source(2)[3], 4);
  EXPECT_EQ(short_source.source(2)[4], 0);
}

TEST(Coding, RejectsWhatIsNotInnovative) {
  Random rng(8);
  const auto rows = random_block(4, 50, rng);
  BlockDecoder d(4, 50);
  EXPECT_TRUE(d.add_source(0, rows[0]));
  EXPECT_FALSE(d.add_source(0, rows[0]));  // held
  // A combination of sources 0 and 1 only, then source 1: implied.
  std::vector<std::uint8_t> coefs{3, 9, 0, 0};
  std::vector<const std::uint8_t*> ptrs{rows[0].data(), rows[1].data(), rows[2].data(), rows[3].data()};
  std::vector<std::uint8_t> data(50);
  combine(ptrs, coefs, 50, data.data());
  EXPECT_TRUE(d.add_coded(coefs, data));
  EXPECT_FALSE(d.add_source(1, rows[1])) << "source 1 follows from source 0 and the combination";
  EXPECT_FALSE(d.add_coded(coefs, data)) << "a duplicate adds nothing";
  EXPECT_EQ(d.rank(), 2u);
  const std::size_t before = d.memory_bytes();
  EXPECT_GT(before, 100u);
  const auto [c2, d2] = coded(rows, 1);
  const auto [c3, d3] = coded(rows, 2);
  EXPECT_TRUE(d.add_coded(c2, d2));
  EXPECT_TRUE(d.add_coded(c3, d3));
  EXPECT_GT(d.memory_bytes(), before);
  EXPECT_TRUE(d.complete());
  const auto [c4, d4] = coded(rows, 3);
  EXPECT_FALSE(d.add_coded(c4, d4)) << "rank never exceeds k";
  expect_decoded(d, rows);
  EXPECT_TRUE(d.has_source(1));
}

TEST(Coding, RecodedSymbolsFromPartialHoldersDecode) {
  Random rng(21);
  const std::size_t k = 16, size = 100;
  const auto rows = random_block(k, size, rng);
  // Two partial holders: A has sources 0..9 and a coded symbol, B sources 6..15.
  BlockDecoder a(k, size), b(k, size);
  for (std::size_t i = 0; i < 10; ++i) a.add_source(i, rows[i]);
  const auto [cc, cd] = coded(rows, 77);
  a.add_coded(cc, cd);
  for (std::size_t i = 6; i < k; ++i) b.add_source(i, rows[i]);
  BlockDecoder c(k, size);
  std::vector<std::uint8_t> coefs(k), data(size);
  std::uint64_t seed = 1;
  for (int i = 0; i < 40 && !c.complete(); ++i) {
    const BlockDecoder& from = i % 2 == 0 ? a : b;
    ASSERT_TRUE(from.recode(seed++, coefs, data));
    c.add_coded(coefs, data);
  }
  expect_decoded(c, rows);
  // Sources the peer holds are left out on request; nothing left: no symbol.
  std::vector<std::uint8_t> all(2, 0xff);
  BlockDecoder only_sources(k, size);
  only_sources.add_source(3, rows[3]);
  EXPECT_FALSE(only_sources.recode(1, coefs, data, all));
  EXPECT_TRUE(only_sources.recode(1, coefs, data));
  EXPECT_FALSE(BlockDecoder(k, size).recode(1, coefs, data)) << "nothing held";
}

TEST(Coding, WhatAPartialHolderCanGiveAPeerIsTheRankBeyondThePeersSources) {
  Random rng(5);
  const std::size_t k = 6, size = 50;
  const auto rows = random_block(k, size, rng);
  // The tactical case: every node lost source 2; A also lost source 5 but
  // holds a parity symbol. A and B have the same rank, yet A completes B.
  BlockDecoder a(k, size), b(k, size);
  for (const std::size_t i : {0, 1, 3, 4}) a.add_source(i, rows[i]);
  const auto [pc, pd] = coded(rows, 9);
  a.add_coded(pc, pd);
  for (const std::size_t i : {0, 1, 3, 4, 5}) b.add_source(i, rows[i]);
  ASSERT_EQ(a.rank(), b.rank());
  const std::vector<std::uint8_t> b_sources{0b111011};
  const std::vector<std::uint8_t> a_sources{0b011011};
  EXPECT_EQ(a.innovative_for(b_sources), 1u) << "the parity symbol reaches source 2, which B lacks";
  EXPECT_EQ(b.innovative_for(a_sources), 1u) << "source 5";
  std::vector<std::uint8_t> coefs(k), data(size);
  ASSERT_TRUE(a.recode(3, coefs, data, b_sources));
  EXPECT_TRUE(b.add_coded(coefs, data)) << "and the recoded symbol is innovative at B";
  expect_decoded(b, rows);
  // Nothing beyond a peer's sources: a holder of a subset of them, or of
  // symbols within their span, has nothing to give.
  BlockDecoder c(k, size);
  c.add_source(0, rows[0]);
  EXPECT_EQ(c.innovative_for(b_sources), 0u);
  EXPECT_EQ(c.innovative_for({}), 1u) << "a peer with nothing";
  EXPECT_EQ(BlockDecoder(k, size).innovative_for({}), 0u);
  const std::vector<std::uint8_t> everything{0xff};
  EXPECT_EQ(a.innovative_for(everything), 0u);
}

TEST(Coding, LargestBlockWorks) {
  Random rng(2);
  const std::size_t k = 255;
  const auto rows = random_block(k, 20, rng);
  BlockDecoder d(k, 20);
  for (std::size_t i = 0; i < k; i += 2) d.add_source(i, rows[i]);
  for (std::uint32_t s = 1; !d.complete() && s < 400; ++s) {
    const auto [coefs, data] = coded(rows, s);
    d.add_coded(coefs, data);
  }
  expect_decoded(d, rows);
  EXPECT_THROW(BlockDecoder(256, 1), std::invalid_argument);
}

}  // namespace block_decoder_test
