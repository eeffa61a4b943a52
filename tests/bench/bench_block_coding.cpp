// Erasure-coding throughput per core (ISA-L through src/coding), k = 64
// symbols of 1,400 bytes: encoding r repair symbols from a whole block, and
// decoding a block with a share of its sources missing. Prints figures; the
// issue's targets are encode >= 1 GB/s and decode >= 500 MB/s.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "coding/block_decoder.h"
#include "coding/coefficients.h"
#include "coding/linear_combination.h"
#include "core/random.h"

using namespace dissem;
using namespace dissem::engine::coding;

namespace {

constexpr std::size_t kK = 64;
constexpr std::size_t kSize = 1400;

double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Runs `body` until at least half a second of thread CPU time has passed;
// returns (iterations, CPU seconds).
template <typename F>
std::pair<std::size_t, double> measure(F&& body) {
  const double start = thread_seconds();
  std::size_t n = 0;
  double elapsed = 0;
  while (elapsed < 0.5) {
    for (int i = 0; i < 8; ++i) body();
    n += 8;
    elapsed = thread_seconds() - start;
  }
  return {n, elapsed};
}

}  // namespace

int main() {
  Random rng(1);
  std::vector<std::vector<std::uint8_t>> rows(kK, std::vector<std::uint8_t>(kSize));
  for (auto& r : rows)
    for (auto& b : r) b = static_cast<std::uint8_t>(rng.next());
  std::vector<const std::uint8_t*> ptrs;
  for (const auto& r : rows) ptrs.push_back(r.data());
  const double block_mb = static_cast<double>(kK * kSize) / 1e6;

  std::printf("block: k = %zu symbols of %zu bytes (%.1f kB)\n", kK, kSize, block_mb * 1e3);
  std::printf("%-34s %14s %16s\n", "", "source MB/s", "output MB/s");
  for (std::size_t r : {1u, 16u, 32u}) {
    std::vector<std::uint8_t> matrix(r * kK);
    for (std::size_t j = 0; j < r; ++j)
      coefficients_from_seed(static_cast<std::uint32_t>(j + 1), std::span(matrix).subspan(j * kK, kK));
    std::vector<std::vector<std::uint8_t>> out(r, std::vector<std::uint8_t>(kSize));
    std::vector<std::uint8_t*> outs;
    for (auto& o : out) outs.push_back(o.data());
    const auto [n, s] = measure([&] { combine_many(ptrs, matrix, kSize, outs); });
    const double per_call = s / static_cast<double>(n);
    std::printf("encode %2zu repair symbol%s per block     %14.0f %16.0f\n", r, r == 1 ? " " : "s",
                block_mb / per_call, static_cast<double>(r * kSize) / 1e6 / per_call);
  }

  // Decoding: the sources that arrived, then coded symbols until the rank is
  // full, then the recovery. Timed whole (rank tracking included).
  std::vector<std::vector<std::uint8_t>> symbols(kK, std::vector<std::uint8_t>(kSize));
  std::vector<std::vector<std::uint8_t>> coefs(kK, std::vector<std::uint8_t>(kK));
  for (std::size_t j = 0; j < kK; ++j) {
    coefficients_from_seed(static_cast<std::uint32_t>(1000 + j), coefs[j]);
    combine(ptrs, coefs[j], kSize, symbols[j].data());
  }
  std::printf("%-34s %14s\n", "", "block MB/s");
  for (double missing : {0.1, 0.3, 1.0}) {
    const auto lost = static_cast<std::size_t>(missing * kK + 0.5);
    std::size_t used = 0;
    const auto [n, s] = measure([&] {
      BlockDecoder d(kK, kSize);
      for (std::size_t i = lost; i < kK; ++i) d.add_source(i, rows[i]);
      for (std::size_t j = 0; j < kK && !d.complete(); ++j) d.add_coded(coefs[j], symbols[j]);
      used = d.decode().size();
    });
    std::printf("decode, %3.0f %% of sources missing     %14.0f   (%zu recovered)\n", missing * 100,
                block_mb / (s / static_cast<double>(n)), used);
  }
  std::printf("targets: encode >= 1000 MB/s, decode >= 500 MB/s (per core)\n");
  return 0;
}
