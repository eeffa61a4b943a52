// Length-prefixed frames for the local IPC socket: a 4-byte big-endian
// length followed by that many bytes of serialised protobuf (proto/ipc.proto).
//
// FrameDecoder is incremental: feed it whatever a read returned, however the
// stream was split, and take complete frame bodies out. A declared length
// above the configured maximum is an error reported as soon as the 4 header
// bytes are in, before any body memory is reserved, so a hostile or broken
// peer cannot make the reader allocate what it announces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>

namespace google::protobuf {
class MessageLite;
}

namespace dissem::ipc {

constexpr std::size_t kFrameHeaderBytes = 4;
// The engine's largest message (64 MiB) plus room for the request fields.
constexpr std::uint32_t kDefaultMaxFrameBytes = 64u * 1024 * 1024 + 4 * 1024;

// Header + serialised `message`, ready to write. Throws std::length_error if
// the message exceeds 2 GiB.
std::string encode_frame(const google::protobuf::MessageLite& message);

// The 4-byte big-endian header for a body of `length` bytes.
void put_frame_header(std::uint32_t length, std::uint8_t out[kFrameHeaderBytes]);

class FrameDecoder {
 public:
  enum class Error { None, TooLarge };

  explicit FrameDecoder(std::uint32_t max_frame_bytes = kDefaultMaxFrameBytes);

  // Consumes all of `bytes`. After an error the decoder ignores further input
  // (the stream cannot be resynchronised).
  void feed(std::span<const std::uint8_t> bytes);

  // The oldest complete frame body not yet taken.
  std::optional<std::string> next();

  Error error() const { return error_; }
  // The length the offending header declared, when error() == TooLarge.
  std::uint32_t rejected_length() const { return rejected_length_; }
  // Memory held for frames in progress or not yet taken (capacity, not
  // size): lets callers and tests check that a declared length alone
  // reserves nothing.
  std::size_t buffered_capacity() const;

 private:
  std::uint32_t max_frame_bytes_;
  std::uint8_t header_[kFrameHeaderBytes]{};
  std::size_t header_have_ = 0;
  bool in_body_ = false;
  std::uint32_t body_length_ = 0;
  std::string body_;
  std::deque<std::string> complete_;
  Error error_ = Error::None;
  std::uint32_t rejected_length_ = 0;
};

}  // namespace dissem::ipc
