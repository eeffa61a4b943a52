#include "coding/window_decoder.h"

#include <algorithm>
#include <map>
#include <set>

#include "coding/block_decoder.h"
#include "coding/linear_combination.h"

namespace dissem::engine::coding {
namespace {

// The equations of one connected set of unknowns, as a block code over
// those unknowns in ascending order.
BlockDecoder decoder_for(const std::vector<std::uint64_t>& unknowns, std::size_t symbol_size) {
  return BlockDecoder(unknowns.size(), std::max<std::size_t>(symbol_size, 1));
}

template <class Eq>
std::vector<std::uint8_t> coefs_over(const Eq& e, const std::vector<std::uint64_t>& unknowns) {
  std::vector<std::uint8_t> out(unknowns.size(), 0);
  for (std::size_t i = 0; i < e.seqs.size(); ++i) {
    const auto at = std::lower_bound(unknowns.begin(), unknowns.end(), e.seqs[i]);
    out[static_cast<std::size_t>(at - unknowns.begin())] = e.coefs[i];
  }
  return out;
}

}  // namespace

void WindowDecoder::add(std::vector<std::uint64_t> seqs, std::vector<std::uint8_t> coefs,
                        std::vector<std::uint8_t> payload) {
  if (seqs.empty() || seqs.size() != coefs.size() || payload.empty()) return;
  if (equations_.size() >= kMaxEquations) equations_.pop_front();
  equations_.push_back(Equation{std::move(seqs), std::move(coefs), std::move(payload)});
}

void WindowDecoder::on_source(std::uint64_t seq, std::span<const std::uint8_t> image) {
  std::vector<std::uint8_t> scratch;
  for (auto it = equations_.begin(); it != equations_.end();) {
    Equation& e = *it;
    const auto at = std::lower_bound(e.seqs.begin(), e.seqs.end(), seq);
    if (at == e.seqs.end() || *at != seq) {
      ++it;
      continue;
    }
    if (image.size() > e.payload.size()) {
      it = equations_.erase(it);
      continue;
    }
    const auto i = static_cast<std::size_t>(at - e.seqs.begin());
    // payload += coef * image over the image's length (characteristic 2: add = subtract).
    if (!image.empty()) {
      const std::uint8_t* rows[] = {e.payload.data(), image.data()};
      const std::uint8_t weights[] = {1, e.coefs[i]};
      scratch.resize(image.size());
      combine(rows, weights, image.size(), scratch.data());
      std::copy(scratch.begin(), scratch.end(), e.payload.begin());
    }
    e.seqs.erase(at);
    e.coefs.erase(e.coefs.begin() + static_cast<std::ptrdiff_t>(i));
    if (e.seqs.empty()) {
      it = equations_.erase(it);  // fully known: nothing left to learn from it
    } else {
      ++it;
    }
  }
}

bool WindowDecoder::decode_set(const std::vector<std::size_t>& members, std::vector<Recovered>& out) const {
  std::set<std::uint64_t> unknown_set;
  std::size_t size = 0;
  for (const auto i : members) {
    unknown_set.insert(equations_[i].seqs.begin(), equations_[i].seqs.end());
    size = std::max(size, equations_[i].payload.size());
  }
  if (members.size() < unknown_set.size() || unknown_set.size() > 255) return false;
  const std::vector<std::uint64_t> unknowns(unknown_set.begin(), unknown_set.end());
  BlockDecoder d = decoder_for(unknowns, size);
  std::vector<std::uint8_t> padded;
  for (const auto i : members) {
    if (d.complete()) break;
    padded.assign(size, 0);
    std::copy(equations_[i].payload.begin(), equations_[i].payload.end(), padded.begin());
    d.add_coded(coefs_over(equations_[i], unknowns), padded);
  }
  if (!d.complete()) return false;
  d.decode();
  for (std::size_t u = 0; u < unknowns.size(); ++u) {
    const auto src = d.source(u);
    out.push_back(Recovered{unknowns[u], std::vector<std::uint8_t>(src.begin(), src.end())});
  }
  return true;
}

std::vector<std::size_t> WindowDecoder::determined(std::vector<std::size_t> members, bool oldest_first) const {
  // Equations in order of their newest (or oldest) unknown: the first
  // prefix whose rank equals the number of unknowns it involves is solvable
  // on its own. Ranks come from the coefficients alone (a one-byte payload).
  std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
    return oldest_first ? equations_[a].seqs.back() < equations_[b].seqs.back()
                        : equations_[a].seqs.front() > equations_[b].seqs.front();
  });
  std::set<std::uint64_t> all;
  for (const auto i : members) all.insert(equations_[i].seqs.begin(), equations_[i].seqs.end());
  if (all.size() > 255) return {};
  const std::vector<std::uint64_t> columns(all.begin(), all.end());
  BlockDecoder ranks = decoder_for(columns, 1);
  const std::uint8_t zero[1] = {0};
  std::set<std::uint64_t> involved;
  for (std::size_t n = 0; n < members.size(); ++n) {
    const Equation& e = equations_[members[n]];
    ranks.add_coded(coefs_over(e, columns), zero);
    involved.insert(e.seqs.begin(), e.seqs.end());
    if (ranks.rank() == involved.size()) return {members.begin(), members.begin() + static_cast<std::ptrdiff_t>(n + 1)};
  }
  return {};
}

std::vector<WindowDecoder::Recovered> WindowDecoder::solve() {
  std::vector<Recovered> out;
  // Each solved set removes its equations and eliminates its messages from
  // the rest, which may determine more: repeat (bounded) until nothing is.
  for (std::size_t pass = 0; pass < kMaxEquations && !equations_.empty(); ++pass) {
    // Connected sets of unknowns: equations sharing an unknown belong together.
    std::map<std::uint64_t, std::uint64_t> parent;
    auto find = [&](std::uint64_t s) {
      while (parent[s] != s) s = parent[s] = parent[parent[s]];
      return s;
    };
    for (const auto& e : equations_)
      for (const auto s : e.seqs) parent.try_emplace(s, s);
    for (const auto& e : equations_)
      for (std::size_t i = 1; i < e.seqs.size(); ++i) parent[find(e.seqs[i])] = find(e.seqs[0]);
    std::map<std::uint64_t, std::vector<std::size_t>> sets;  // root -> equations
    for (std::size_t i = 0; i < equations_.size(); ++i) sets[find(equations_[i].seqs[0])].push_back(i);

    std::vector<Recovered> found;
    std::vector<bool> solved(equations_.size(), false);
    for (const auto& [root, members] : sets) {
      std::vector<std::size_t> set = members;
      bool done = decode_set(set, found);
      for (const bool oldest_first : {true, false}) {
        if (done) break;
        set = determined(members, oldest_first);
        done = !set.empty() && decode_set(set, found);
      }
      if (done)
        for (const auto i : set) solved[i] = true;
    }
    if (found.empty()) break;
    std::deque<Equation> kept;
    for (std::size_t i = 0; i < equations_.size(); ++i)
      if (!solved[i]) kept.push_back(std::move(equations_[i]));
    equations_ = std::move(kept);
    for (auto& r : found) {
      // Zero padding adds nothing to a combination: eliminate the image as
      // far as its last non-zero byte, so shorter equations accept it.
      auto end = r.image.end();
      while (end != r.image.begin() && *(end - 1) == 0) --end;
      on_source(r.seq, std::span<const std::uint8_t>(r.image.data(), static_cast<std::size_t>(end - r.image.begin())));
      out.push_back(std::move(r));
    }
  }
  return out;
}

std::vector<std::uint64_t> WindowDecoder::unknowns() const {
  std::set<std::uint64_t> all;
  for (const auto& e : equations_) all.insert(e.seqs.begin(), e.seqs.end());
  return {all.begin(), all.end()};
}

bool WindowDecoder::involves(std::uint64_t seq) const {
  return std::any_of(equations_.begin(), equations_.end(),
                     [&](const Equation& e) { return std::binary_search(e.seqs.begin(), e.seqs.end(), seq); });
}

std::size_t WindowDecoder::rank_within(std::uint64_t first, std::uint64_t last) const {
  std::set<std::uint64_t> unknown_set;
  std::vector<const Equation*> inside;
  for (const auto& e : equations_) {
    if (e.seqs.front() < first || e.seqs.back() > last) continue;
    inside.push_back(&e);
    unknown_set.insert(e.seqs.begin(), e.seqs.end());
  }
  if (inside.empty() || unknown_set.size() > 255) return 0;
  const std::vector<std::uint64_t> unknowns(unknown_set.begin(), unknown_set.end());
  // Coefficients alone decide the rank: a one-byte stand-in payload will do.
  BlockDecoder d = decoder_for(unknowns, 1);
  const std::uint8_t zero[1] = {0};
  for (const Equation* e : inside) d.add_coded(coefs_over(*e, unknowns), zero);
  return d.rank();
}

void WindowDecoder::forget_before(std::uint64_t seq) {
  std::erase_if(equations_, [&](const Equation& e) { return e.seqs.front() < seq; });
}

std::size_t WindowDecoder::memory_bytes() const {
  std::size_t n = 0;
  for (const auto& e : equations_) n += e.seqs.size() * 9 + e.payload.size() + 64;
  return n;
}

}  // namespace dissem::engine::coding
