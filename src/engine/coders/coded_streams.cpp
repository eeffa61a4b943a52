#include "engine/coders/coded_streams.h"

namespace dissem::engine {

void CodedStreams::note_small(const StreamId& stream, bool small) {
  auto it = entries_.find(stream);
  if (it == entries_.end()) {
    if (!small) return;  // the default
    it = entries_.try_emplace(stream).first;
  }
  it->second.small = small;
}

bool CodedStreams::small(const StreamId& stream) const {
  auto it = entries_.find(stream);
  return it != entries_.end() && it->second.small;
}

void CodedStreams::note_excluded(const StreamId& stream, std::uint64_t seq) {
  auto& e = entries_[stream].excluded;
  e.insert(seq);
  if (e.size() > kMaxExcluded) e.erase(e.begin());
}

bool CodedStreams::excluded(const StreamId& stream, std::uint64_t seq) const {
  auto it = entries_.find(stream);
  return it != entries_.end() && it->second.excluded.contains(seq);
}

coding::WindowDecoder* CodedStreams::decoder(const StreamId& stream) {
  auto it = entries_.find(stream);
  return it == entries_.end() || !it->second.decoder ? nullptr : &*it->second.decoder;
}

coding::WindowDecoder* CodedStreams::open(const StreamId& stream, std::size_t bytes) {
  if (memory_ + bytes > budget_) return nullptr;
  auto& e = entries_[stream];
  if (!e.decoder) e.decoder.emplace();
  return &*e.decoder;
}

void CodedStreams::update_memory(const StreamId& stream) {
  auto it = entries_.find(stream);
  if (it == entries_.end()) return;
  Entry& e = it->second;
  const std::size_t now_bytes = e.decoder ? e.decoder->memory_bytes() : 0;
  memory_ = memory_ - e.charged + now_bytes;
  e.charged = now_bytes;
  if (e.decoder && e.decoder->empty()) e.decoder.reset();
}

std::size_t CodedStreams::open_decoders() const {
  std::size_t n = 0;
  for (const auto& [stream, e] : entries_) n += e.decoder ? 1 : 0;
  return n;
}

}  // namespace dissem::engine
