#include "frame_codec.h"

#include <algorithm>
#include <string>

namespace dissem::tcp_baseline {
namespace {

// Drops consumed bytes from the front once they are most of the buffer, so
// memory follows what is pending, not what ever passed through.
void compact(std::vector<std::uint8_t>& bytes, std::size_t& head) {
  if (head == bytes.size()) {
    bytes.clear();
    head = 0;
  } else if (head >= 65536 && head * 2 >= bytes.size()) {
    bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(head));
    head = 0;
  }
}

}  // namespace

void SendBuffer::push(std::span<const std::uint8_t> message) {
  if (message.size() > kMaxFrameBytes)
    throw std::invalid_argument("a message of " + std::to_string(message.size()) + " bytes is above the framing's limit");
  const auto n = static_cast<std::uint32_t>(message.size());
  for (int shift = 24; shift >= 0; shift -= 8) bytes_.push_back(static_cast<std::uint8_t>(n >> shift));
  bytes_.insert(bytes_.end(), message.begin(), message.end());
  ends_.push_back(base_ + bytes_.size());
}

std::size_t SendBuffer::consume(std::size_t n) {
  head_ += std::min(n, bytes_.size() - head_);
  std::size_t completed = 0;
  while (!ends_.empty() && ends_.front() <= base_ + head_) {
    ends_.pop_front();
    ++completed;
  }
  written_ += completed;
  bytes_written_ += n;
  const std::size_t before = bytes_.size();
  compact(bytes_, head_);
  base_ += before - bytes_.size();
  return completed;
}

void FrameReader::feed(std::span<const std::uint8_t> bytes) { buffer_.insert(buffer_.end(), bytes.begin(), bytes.end()); }

std::optional<std::vector<std::uint8_t>> FrameReader::next() {
  if (partial_bytes() < kLengthBytes) return std::nullopt;
  std::size_t length = 0;
  for (std::size_t i = 0; i < kLengthBytes; ++i) length = (length << 8) | buffer_[head_ + i];
  if (length > kMaxFrameBytes) throw FrameError("a message length of " + std::to_string(length) + " bytes: not our framing");
  if (partial_bytes() < kLengthBytes + length) return std::nullopt;
  const auto first = buffer_.begin() + static_cast<std::ptrdiff_t>(head_ + kLengthBytes);
  std::vector<std::uint8_t> message(first, first + static_cast<std::ptrdiff_t>(length));
  head_ += kLengthBytes + length;
  compact(buffer_, head_);
  return message;
}

}  // namespace dissem::tcp_baseline
