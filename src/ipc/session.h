// One client connection of the IPC server: reads frames, hands each request
// to its owner, and writes frames from a bounded outgoing queue.
//
// Life cycle: Open (reading and writing) -> Closing (a protocol error: the
// Error frame is the last thing queued, reading has stopped; closes once it
// is written or after the linger time) -> Closed. A write error, EOF, a read
// error or queue overflow goes straight to Closed.
//
// Queue policy: a frame is refused, and the connection closed at once, when
// it would take the bytes queued but not yet written past the limit. A frame
// is always accepted into an empty queue, so one message as large as the
// limit can still be delivered to a client that keeps up.
//
// Every asio handler holds a shared_ptr to the session and checks the state
// first, so handlers that run after close (or after the owner detached it on
// server stop) touch nothing else.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>

#include "ipc.pb.h"
#include "ipc/backend.h"
#include "ipc/framing.h"

namespace dissem::ipc {

struct IpcServerCounters {
  std::uint64_t clients_accepted = 0;
  std::uint64_t frames_in = 0;
  std::uint64_t frames_out = 0;
  std::uint64_t malformed_frames = 0;        // each also closed its client
  std::uint64_t clients_dropped_overflow = 0;
  std::uint64_t clients_dropped_unfinished = 0;  // closed: the daemon-wide cap on unfinished frames
};

class Session;

// Implemented by the server; the session's only way out.
class SessionOwner {
 public:
  virtual ~SessionOwner() = default;
  // Called for each well-formed request; answers through session.send().
  virtual void on_request(Session& session, const ClientMessage& request) = 0;
  // The session reached Closed (called once, not after detach()).
  virtual void on_closed(ClientId id) = 0;
  virtual IpcServerCounters& mutable_counters() = 0;
  // A session's memory for unfinished frames went from `released` to
  // `taken` bytes; false when all sessions together now hold more than the
  // daemon-wide cap (the session then closes, which releases its share).
  virtual bool charge_unfinished(std::size_t released, std::size_t taken) = 0;
};

struct SessionLimits {
  std::uint32_t max_frame_bytes = kDefaultMaxFrameBytes;
  std::size_t max_queued_bytes = std::size_t{64} * 1024 * 1024;
  std::chrono::milliseconds close_linger{2000};
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  using Socket = boost::asio::local::stream_protocol::socket;

  Session(Socket socket, ClientId id, const SessionLimits& limits, SessionOwner& owner);

  void start();
  // Queues one frame. False if the session is not open or the frame
  // overflowed the queue (the session is then closed).
  bool send(const ServerMessage& message);
  // Closes without telling the owner (the server is stopping).
  void detach();

  ClientId id() const { return id_; }
  bool open() const { return state_ == State::Open; }
  std::size_t queued_bytes() const { return queued_bytes_; }

 private:
  enum class State { Open, Closing, Closed };

  void read_more();
  void on_read(std::size_t n);
  void handle_frame(const std::string& body);
  // Sends an Error frame (request_id 0), then closes.
  void fail(Error::Code code, const std::string& message);
  bool enqueue(std::string frame);
  void write_more();
  void close();

  Socket socket_;
  ClientId id_;
  SessionLimits limits_;
  SessionOwner* owner_;  // null once detached
  State state_ = State::Open;
  FrameDecoder decoder_;
  std::size_t charged_ = 0;  // unfinished-frame bytes counted against the daemon-wide cap
  std::array<std::uint8_t, 64 * 1024> read_buffer_{};
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  boost::asio::steady_timer linger_;
};

}  // namespace dissem::ipc
