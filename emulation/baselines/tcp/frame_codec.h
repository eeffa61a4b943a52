// Messages on the TCP byte stream: each is a 4-byte big-endian length, then
// that many bytes (a stamped payload, src/tools/load/stamped_payload.h).
// SendBuffer holds what the sender's application produced and the socket has
// not taken yet, knowing where each message ends; FrameReader cuts whatever
// the receiver reads into whole messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

namespace dissem::tcp_baseline {

inline constexpr std::size_t kLengthBytes = 4;
// Largest message either side accepts (the workload's own bound).
inline constexpr std::size_t kMaxFrameBytes = std::size_t{1} << 30;

class SendBuffer {
 public:
  // Appends one message, length first. Throws std::invalid_argument above kMaxFrameBytes.
  void push(std::span<const std::uint8_t> message);

  // The bytes not yet written, in order.
  std::span<const std::uint8_t> pending() const { return {bytes_.data() + head_, bytes_.size() - head_}; }
  bool empty() const { return head_ == bytes_.size(); }
  // `n` bytes of pending() were written; returns how many messages that completed.
  std::size_t consume(std::size_t n);

  std::size_t messages_pending() const { return ends_.size(); }
  std::size_t messages_written() const { return written_; }
  std::uint64_t bytes_written() const { return bytes_written_; }

 private:
  std::vector<std::uint8_t> bytes_;
  std::size_t head_ = 0;
  std::deque<std::uint64_t> ends_;  // end of each pending message, counted from the first byte ever pushed
  std::uint64_t base_ = 0;          // bytes dropped from the front of bytes_ so far
  std::size_t written_ = 0;
  std::uint64_t bytes_written_ = 0;
};

// The stream does not follow the framing (a length above kMaxFrameBytes).
class FrameError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class FrameReader {
 public:
  // Adds bytes read from the socket; complete messages become available.
  void feed(std::span<const std::uint8_t> bytes);
  // The next complete message, if any. Throws FrameError on a bad length.
  std::optional<std::vector<std::uint8_t>> next();
  // Bytes held that do not make a whole message yet.
  std::size_t partial_bytes() const { return buffer_.size() - head_; }

 private:
  std::vector<std::uint8_t> buffer_;
  std::size_t head_ = 0;
};

}  // namespace dissem::tcp_baseline
