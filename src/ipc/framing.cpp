#include "ipc/framing.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <google/protobuf/message_lite.h>

namespace dissem::ipc {

namespace {
// The body buffer grows with the bytes that actually arrive, never ahead of
// them by more than this, so a large declared length costs memory only as
// the peer really sends it.
constexpr std::size_t kInitialReserve = 64 * 1024;
}  // namespace

void put_frame_header(std::uint32_t length, std::uint8_t out[kFrameHeaderBytes]) {
  out[0] = static_cast<std::uint8_t>(length >> 24);
  out[1] = static_cast<std::uint8_t>(length >> 16);
  out[2] = static_cast<std::uint8_t>(length >> 8);
  out[3] = static_cast<std::uint8_t>(length);
}

std::string encode_frame(const google::protobuf::MessageLite& message) {
  const std::size_t size = message.ByteSizeLong();
  // SerializeToArray takes an int, so 2 GiB is the real bound.
  if (size > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::length_error("IPC frame larger than 2 GiB");
  }
  std::string out(kFrameHeaderBytes + size, '\0');
  std::uint8_t header[kFrameHeaderBytes];
  put_frame_header(static_cast<std::uint32_t>(size), header);
  std::copy(std::begin(header), std::end(header), out.begin());
  if (!message.SerializeToArray(out.data() + kFrameHeaderBytes, static_cast<int>(size))) {
    throw std::runtime_error("IPC frame serialisation failed");
  }
  return out;
}

FrameDecoder::FrameDecoder(std::uint32_t max_frame_bytes) : max_frame_bytes_(max_frame_bytes) {}

void FrameDecoder::feed(std::span<const std::uint8_t> bytes) {
  while (!bytes.empty() && error_ == Error::None) {
    if (!in_body_) {
      const std::size_t take = std::min(kFrameHeaderBytes - header_have_, bytes.size());
      std::copy_n(bytes.begin(), take, header_ + header_have_);
      header_have_ += take;
      bytes = bytes.subspan(take);
      if (header_have_ < kFrameHeaderBytes) return;
      body_length_ = std::uint32_t{header_[0]} << 24 | std::uint32_t{header_[1]} << 16 |
                     std::uint32_t{header_[2]} << 8 | std::uint32_t{header_[3]};
      header_have_ = 0;
      if (body_length_ > max_frame_bytes_) {
        error_ = Error::TooLarge;
        rejected_length_ = body_length_;
        return;
      }
      in_body_ = true;
      body_.clear();
      body_.reserve(std::min<std::size_t>(body_length_, kInitialReserve));
    }
    const std::size_t take = std::min<std::size_t>(body_length_ - body_.size(), bytes.size());
    body_.append(reinterpret_cast<const char*>(bytes.data()), take);
    bytes = bytes.subspan(take);
    if (body_.size() == body_length_) {
      complete_.push_back(std::move(body_));
      body_ = std::string();
      in_body_ = false;
    }
  }
}

std::optional<std::string> FrameDecoder::next() {
  if (complete_.empty()) return std::nullopt;
  std::string frame = std::move(complete_.front());
  complete_.pop_front();
  return frame;
}

std::size_t FrameDecoder::buffered_capacity() const {
  // An empty string still has its small inline buffer: only a frame in
  // progress counts.
  std::size_t total = in_body_ ? body_.capacity() : 0;
  for (const auto& f : complete_) total += f.capacity();
  return total;
}

}  // namespace dissem::ipc
