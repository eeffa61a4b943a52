#include "coding/block_decoder.h"

#include <isa-l/erasure_code.h>

#include <algorithm>
#include <stdexcept>

#include "coding/coefficients.h"
#include "coding/linear_combination.h"

namespace dissem::engine::coding {

BlockDecoder::BlockDecoder(std::size_t k, std::size_t symbol_size)
    : k_(k), symbol_size_(symbol_size), basis_(k), source_at_(k, -1), recovered_(k), scratch_(k) {
  if (k == 0 || k > 255 || symbol_size == 0) throw std::invalid_argument("BlockDecoder: 1 <= k <= 255, symbol_size > 0");
}

std::size_t BlockDecoder::k() const { return k_; }
std::size_t BlockDecoder::symbol_size() const { return symbol_size_; }
std::size_t BlockDecoder::rank() const { return rank_; }

bool BlockDecoder::has_source(std::size_t i) const {
  return i < k_ && (source_at_[i] >= 0 || !recovered_[i].empty());
}

std::size_t BlockDecoder::sources_held() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < k_; ++i) n += has_source(i) ? 1 : 0;
  return n;
}

std::size_t BlockDecoder::coded_held() const {
  std::size_t sources = 0;
  for (const auto at : source_at_) sources += at >= 0 ? 1 : 0;
  return held_.size() - sources;
}

std::size_t BlockDecoder::memory_bytes() const {
  std::size_t n = 0;
  for (const auto& h : held_) n += h.coefs.size() + h.payload.size();
  for (const auto& b : basis_) n += b.size();
  for (const auto& r : recovered_) n += r.size();
  return n;
}

std::size_t BlockDecoder::reduce(std::vector<std::uint8_t>& v) const {
  // v += v[c] * basis_[c] zeroes column c (characteristic 2). Both rows are
  // zero before column c, so only columns c.. are combined; ISA-L is called
  // directly with preallocated tables: this runs once per pivot per symbol.
  unsigned char coefs[2] = {1, 0};
  unsigned char tables[64];
  for (std::size_t c = 0; c < k_; ++c) {
    if (v[c] == 0) continue;
    if (basis_[c].empty()) return c;
    coefs[1] = v[c];
    ec_init_tables(2, 1, coefs, tables);
    unsigned char* src[2] = {v.data() + c, const_cast<unsigned char*>(basis_[c].data() + c)};
    unsigned char* dst[1] = {scratch_.data() + c};
    ec_encode_data(static_cast<int>(k_ - c), 2, 1, tables, src, dst);
    std::copy(scratch_.begin() + static_cast<std::ptrdiff_t>(c), scratch_.end(), v.begin() + static_cast<std::ptrdiff_t>(c));
  }
  return k_;
}

bool BlockDecoder::insert(std::vector<std::uint8_t> coefs, std::span<const std::uint8_t> data) {
  std::vector<std::uint8_t> v = coefs;
  const std::size_t pivot = reduce(v);
  if (pivot == k_) return false;
  // Normalise so the pivot is 1: later reductions need no inverse.
  std::vector<std::uint8_t> row(k_, 0);
  const std::uint8_t* rows[] = {v.data() + pivot};
  const std::uint8_t scale[] = {gf_inv(v[pivot])};
  combine(rows, scale, k_ - pivot, row.data() + pivot);
  basis_[pivot] = std::move(row);
  Held h;
  h.coefs = std::move(coefs);
  h.payload.assign(symbol_size_, 0);
  std::copy(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(std::min(data.size(), symbol_size_)),
            h.payload.begin());
  held_.push_back(std::move(h));
  ++rank_;
  return true;
}

bool BlockDecoder::add_source(std::size_t i, std::span<const std::uint8_t> data) {
  if (i >= k_ || data.size() > symbol_size_) throw std::invalid_argument("BlockDecoder::add_source: bad index or size");
  if (has_source(i)) return false;
  std::vector<std::uint8_t> unit(k_, 0);
  unit[i] = 1;
  if (!insert(std::move(unit), data)) return false;
  source_at_[i] = static_cast<std::int32_t>(held_.size() - 1);
  return true;
}

std::size_t BlockDecoder::innovative_for(std::span<const std::uint8_t> peer_sources) const {
  // The peer's span, built with the same elimination (no payloads needed),
  // then every symbol held here offered to it.
  BlockDecoder peer(k_, 1);
  for (std::size_t i = 0; i < k_; ++i)
    if (i / 8 < peer_sources.size() && (peer_sources[i / 8] >> (i % 8) & 1) != 0) peer.add_source(i, {});
  const std::uint8_t none[1] = {0};
  std::size_t n = 0;
  for (const Held& h : held_)
    if (peer.insert(h.coefs, none)) ++n;
  return n;
}

bool BlockDecoder::add_coded(std::span<const std::uint8_t> coefs, std::span<const std::uint8_t> data) {
  if (coefs.size() != k_ || data.size() != symbol_size_)
    throw std::invalid_argument("BlockDecoder::add_coded: coefficients must be k bytes, data symbol_size");
  if (complete()) return false;
  return insert(std::vector<std::uint8_t>(coefs.begin(), coefs.end()), data);
}

std::vector<std::size_t> BlockDecoder::decode() {
  std::vector<std::size_t> missing;
  if (!complete() || decoded_) return missing;
  decoded_ = true;
  std::vector<std::size_t> coded;  // held_ entries that are coded symbols
  std::vector<bool> is_source(held_.size(), false);
  for (std::size_t i = 0; i < k_; ++i) {
    if (source_at_[i] < 0) {
      missing.push_back(i);
    } else {
      is_source[static_cast<std::size_t>(source_at_[i])] = true;
    }
  }
  if (missing.empty()) return missing;
  for (std::size_t j = 0; j < held_.size(); ++j)
    if (!is_source[j]) coded.push_back(j);
  const std::size_t m = missing.size();  // == coded.size(): the rank is full
  // 1. Take the held sources out of each coded payload (one pass over all):
  //    y_j = p_j + sum over held sources i of c_j[i] s_i.
  std::vector<const std::uint8_t*> rows;
  std::vector<std::uint8_t> matrix(m * (m + (k_ - m)), 0);
  const std::size_t width = k_;
  for (const std::size_t j : coded) rows.push_back(held_[j].payload.data());
  for (std::size_t i = 0; i < k_; ++i)
    if (source_at_[i] >= 0) rows.push_back(held_[static_cast<std::size_t>(source_at_[i])].payload.data());
  std::vector<std::vector<std::uint8_t>> reduced(m, std::vector<std::uint8_t>(symbol_size_));
  std::vector<std::uint8_t*> outs;
  for (std::size_t r = 0; r < m; ++r) {
    const auto& c = held_[coded[r]].coefs;
    matrix[r * width + r] = 1;
    std::size_t col = m;
    for (std::size_t i = 0; i < k_; ++i)
      if (source_at_[i] >= 0) matrix[r * width + col++] = c[i];
    outs.push_back(reduced[r].data());
  }
  if (m < k_) {
    combine_many(rows, matrix, symbol_size_, outs);
  } else {
    for (std::size_t r = 0; r < m; ++r) reduced[r] = held_[coded[r]].payload;
  }
  // 2. y = A s over the missing sources only (A: m x m, the coded rows'
  //    coefficients at the missing columns): s = A^-1 y.
  std::vector<std::uint8_t> a(m * m);
  std::vector<std::uint8_t> inverse(m * m);
  for (std::size_t r = 0; r < m; ++r)
    for (std::size_t q = 0; q < m; ++q) a[r * m + q] = held_[coded[r]].coefs[missing[q]];
  if (gf_invert_matrix(a.data(), inverse.data(), static_cast<int>(m)) != 0)
    throw std::logic_error("BlockDecoder: full rank but singular (rank tracking broken)");
  std::vector<const std::uint8_t*> y;
  for (const auto& r : reduced) y.push_back(r.data());
  outs.clear();
  for (const std::size_t i : missing) {
    recovered_[i].assign(symbol_size_, 0);
    outs.push_back(recovered_[i].data());
  }
  combine_many(y, inverse, symbol_size_, outs);
  return missing;
}

std::span<const std::uint8_t> BlockDecoder::source(std::size_t i) const {
  if (i >= k_ || !has_source(i)) throw std::out_of_range("BlockDecoder::source: not held");
  if (source_at_[i] >= 0) return held_[static_cast<std::size_t>(source_at_[i])].payload;
  return recovered_[i];
}

bool BlockDecoder::recode(std::uint64_t seed, std::span<std::uint8_t> coefs_out, std::span<std::uint8_t> data_out,
                          std::span<const std::uint8_t> skip) const {
  if (coefs_out.size() != k_ || data_out.size() != symbol_size_)
    throw std::invalid_argument("BlockDecoder::recode: outputs must be k and symbol_size bytes");
  auto skipped = [&](std::size_t i) { return i / 8 < skip.size() && (skip[i / 8] >> (i % 8) & 1) != 0; };
  std::vector<const std::uint8_t*> coef_rows;
  std::vector<const std::uint8_t*> data_rows;
  for (std::size_t j = 0; j < held_.size(); ++j) {
    const auto& h = held_[j];
    const auto source = std::find(source_at_.begin(), source_at_.end(), static_cast<std::int32_t>(j));
    if (source != source_at_.end() && skipped(static_cast<std::size_t>(source - source_at_.begin()))) continue;
    coef_rows.push_back(h.coefs.data());
    data_rows.push_back(h.payload.data());
  }
  if (coef_rows.empty()) return false;
  std::vector<std::uint8_t> weights(coef_rows.size());
  coefficients_from_seed(static_cast<std::uint32_t>(seed ^ (seed >> 32)), weights);
  combine(coef_rows, weights, k_, coefs_out.data());
  combine(data_rows, weights, symbol_size_, data_out.data());
  return true;
}

}  // namespace dissem::engine::coding
