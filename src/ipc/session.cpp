#include "ipc/session.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>

namespace dissem::ipc {

namespace asio = boost::asio;

namespace {
// Frames gathered into one write: fewer system calls for streams of small
// deliveries, and a bound on the buffer list built per write.
constexpr std::size_t kMaxFramesPerWrite = 64;
}  // namespace

Session::Session(Socket socket, ClientId id, const SessionLimits& limits, SessionOwner& owner)
    : socket_(std::move(socket)),
      id_(id),
      limits_(limits),
      owner_(&owner),
      decoder_(limits.max_frame_bytes),
      linger_(socket_.get_executor()) {}

void Session::start() { read_more(); }

void Session::read_more() {
  socket_.async_read_some(asio::buffer(read_buffer_),
                          [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
                            if (self->state_ != State::Open) return;
                            if (ec) {
                              self->close();
                              return;
                            }
                            self->on_read(n);
                          });
}

void Session::on_read(std::size_t n) {
  decoder_.feed(std::span<const std::uint8_t>(read_buffer_.data(), n));
  // Frames completed before a bad header are still served, in order.
  while (state_ == State::Open) {
    auto body = decoder_.next();
    if (!body) break;
    handle_frame(*body);
  }
  if (state_ != State::Open) return;
  const std::size_t held = decoder_.buffered_capacity();
  const bool within = owner_->charge_unfinished(charged_, held);
  charged_ = held;
  if (!within) {
    owner_->mutable_counters().clients_dropped_unfinished++;
    fail(Error::FRAME_TOO_LARGE, "the daemon holds too much unfinished frame data across its clients; "
                                 "this connection is closed");
    return;
  }
  if (decoder_.error() == FrameDecoder::Error::TooLarge) {
    fail(Error::FRAME_TOO_LARGE, "frame declares " + std::to_string(decoder_.rejected_length()) +
                                     " bytes, above the maximum of " + std::to_string(limits_.max_frame_bytes));
    return;
  }
  read_more();
}

void Session::handle_frame(const std::string& body) {
  owner_->mutable_counters().frames_in++;
  ClientMessage request;
  if (!request.ParseFromString(body)) {
    fail(Error::MALFORMED_FRAME, "frame is not a valid ClientMessage");
    return;
  }
  if (request.request_case() == ClientMessage::REQUEST_NOT_SET) {
    fail(Error::UNKNOWN_REQUEST, "request names no operation this daemon knows");
    return;
  }
  owner_->on_request(*this, request);
}

void Session::fail(Error::Code code, const std::string& message) {
  owner_->mutable_counters().malformed_frames++;
  ServerMessage m;
  auto& r = *m.mutable_response();
  r.set_request_id(0);
  r.mutable_error()->set_code(code);
  r.mutable_error()->set_message(message);
  if (!enqueue(encode_frame(m))) return;  // overflowed: already closed
  state_ = State::Closing;
  // A client that stopped reading must not keep the connection half-open.
  linger_.expires_after(limits_.close_linger);
  linger_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec && self->state_ == State::Closing) self->close();
  });
}

bool Session::send(const ServerMessage& message) {
  if (state_ != State::Open) return false;
  return enqueue(encode_frame(message));
}

bool Session::enqueue(std::string frame) {
  if (!queue_.empty() && queued_bytes_ + frame.size() > limits_.max_queued_bytes) {
    if (owner_ != nullptr) owner_->mutable_counters().clients_dropped_overflow++;
    close();
    return false;
  }
  queued_bytes_ += frame.size();
  queue_.push_back(std::move(frame));
  write_more();
  return true;
}

void Session::write_more() {
  if (writing_ || queue_.empty()) return;
  writing_ = true;
  // deque::push_back leaves references to existing elements valid, so the
  // buffers stay good while later frames are queued during the write.
  const std::size_t count = std::min(queue_.size(), kMaxFramesPerWrite);
  std::vector<asio::const_buffer> buffers;
  buffers.reserve(count);
  for (std::size_t i = 0; i < count; ++i) buffers.emplace_back(asio::buffer(queue_[i]));
  asio::async_write(socket_, buffers,
                    [self = shared_from_this(), count](const boost::system::error_code& ec, std::size_t) {
                      self->writing_ = false;
                      if (self->state_ == State::Closed) return;
                      if (ec) {
                        self->close();
                        return;
                      }
                      for (std::size_t i = 0; i < count; ++i) {
                        self->queued_bytes_ -= self->queue_.front().size();
                        self->queue_.pop_front();
                      }
                      if (self->owner_ != nullptr) self->owner_->mutable_counters().frames_out += count;
                      if (self->queue_.empty() && self->state_ == State::Closing) {
                        self->close();
                        return;
                      }
                      self->write_more();
                    });
}

void Session::close() {
  if (state_ == State::Closed) return;
  state_ = State::Closed;
  linger_.cancel();
  boost::system::error_code ignored;
  socket_.shutdown(Socket::shutdown_both, ignored);
  socket_.close(ignored);
  // A write in progress still references the front frames; its handler
  // (which sees Closed) runs later, so only drop what it does not use.
  if (!writing_) queue_.clear();
  queued_bytes_ = 0;
  if (owner_ != nullptr) {
    SessionOwner* owner = owner_;
    owner_ = nullptr;
    owner->charge_unfinished(charged_, 0);
    charged_ = 0;
    owner->on_closed(id_);
  }
}

void Session::detach() {
  owner_ = nullptr;
  close();
}

}  // namespace dissem::ipc
