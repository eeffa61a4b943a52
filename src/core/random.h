// The project's only pseudo-random generator: xoshiro256** seeded through
// splitmix64, with the uniform helpers written out (std::*_distribution
// differ between standard libraries, and a seed must give the same engine
// decisions and simulator traces everywhere). The engine draws from one
// seeded by EngineConfig::seed; the simulator from its own streams.
#pragma once

#include <cstdint>

namespace dissem {

// One splitmix64 step: advances `state` and returns a well-mixed value.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// An independent seed for sub-stream `stream` of `seed` (medium, node i, ...),
// so adding a node does not shift the random numbers of the others.
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t s = seed ^ (stream * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL);
  splitmix64(s);
  return splitmix64(s);
}

class Random {
 public:
  explicit Random(std::uint64_t seed) {
    for (auto& s : state_) s = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, 1): the top 53 bits scaled, exact in a double.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, bound); bound > 0. Rejection sampling removes the
  // modulo bias, which matters for large bounds such as delays in microseconds.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x = next();
    while (x >= limit) x = next();
    return x % bound;
  }

  // Uniform integer in [lo, hi]; hi >= lo.
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo);
    if (span == UINT64_MAX) return static_cast<std::int64_t>(next());
    return lo + static_cast<std::int64_t>(below(span + 1));
  }

  // True with probability p (p <= 0 never, p >= 1 always).
  bool chance(double p) { return uniform() < p; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4];
};

}  // namespace dissem
