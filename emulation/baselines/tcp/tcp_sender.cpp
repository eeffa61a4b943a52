#include "tcp_sender.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "frame_codec.h"
#include "socket_ops.h"
#include "common/run_clock.h"
#include "common/stop_signal.h"
#include "core/json.h"
#include "tools/load/publication_log.h"
#include "tools/load/stamped_payload.h"

namespace dissem::tcp_baseline {

using baseline::RunClock;
using baseline::us_to_s;

namespace {

constexpr double kSenderMaxWaitS = 0.1;  // longest single wait: signals and deadlines stay prompt

enum class SenderEnd { Running, ReceiverClosed, TimeLimit, Signal, ConnectFailed, Error };

const char* sender_end_name(SenderEnd e) {
  switch (e) {
    case SenderEnd::ReceiverClosed: return "receiver_closed";
    case SenderEnd::TimeLimit: return "time_limit";
    case SenderEnd::Signal: return "signal";
    case SenderEnd::ConnectFailed: return "connect_failed";
    case SenderEnd::Error: return "error";
    case SenderEnd::Running: break;
  }
  return "running";
}

bool is_reset(int error) { return error == EPIPE || error == ECONNRESET; }

// The application of the paper's set-up over plain TCP: it produces each
// message on schedule whatever the network does, and the messages wait in
// its own buffer, then in the socket's, for TCP to take them. Latency
// therefore includes every queue, as with the paper's SCTP and SCPS-TP.
class Sender {
 public:
  explicit Sender(const Options& o)
      : o_(o), schedule_(load::schedule(o.workload)), log_(o.workload) {}

  int run() {
    try {
      if (connect()) loop();
    } catch (const std::exception& e) {
      end_ = SenderEnd::Error;
      error_ = e.what();
      std::fprintf(stderr, "dissem-tcp sender: %s\n", e.what());
    }
    print_result();
    return end_ == SenderEnd::ReceiverClosed ? 0 : (end_ == SenderEnd::TimeLimit || end_ == SenderEnd::Signal) ? 4 : 1;
  }

 private:
  bool connect() {
    auto fd = connect_with_retry(o_.sender.connect, std::min(o_.sender.connect_timeout_s, o_.time_limit_s),
                                 [] { return dissem::baseline::stop_requested(); });
    connect_s_ = clock_.elapsed_s();
    if (!fd) {
      end_ = dissem::baseline::stop_requested() ? SenderEnd::Signal : SenderEnd::ConnectFailed;
      std::fprintf(stderr, "dissem-tcp sender: no connection to %s:%u\n", o_.sender.connect.host.c_str(),
                   o_.sender.connect.port);
      return false;
    }
    fd_ = std::move(*fd);
    set_no_delay(fd_.get());
    if (o_.sender.send_buffer > 0) set_send_buffer(fd_.get(), o_.sender.send_buffer);
    set_nonblocking(fd_.get());
    // The workload's clock starts once connected: time 0 of the schedule.
    start_s_ = clock_.elapsed_s();
    start_unix_us_ = RunClock::now_unix_us();
    return true;
  }

  double since_start() const { return clock_.elapsed_s() - start_s_; }

  void loop() {
    while (end_ == SenderEnd::Running) {
      if (dissem::baseline::stop_requested()) end_ = SenderEnd::Signal;
      else if (clock_.elapsed_s() >= o_.time_limit_s) end_ = SenderEnd::TimeLimit;
      if (end_ != SenderEnd::Running) return;
      produce_due();
      double wait = o_.time_limit_s - clock_.elapsed_s();
      if (next_ < schedule_.size()) wait = std::min(wait, schedule_[next_].at_s - since_start());
      pollfd p{fd_.get(), static_cast<short>(POLLIN | (buffer_.empty() ? 0 : POLLOUT)), 0};
      const int ready = ::poll(&p, 1, static_cast<int>(std::clamp(wait, 0.0, kSenderMaxWaitS) * 1000));
      if (ready < 0 && errno != EINTR) throw SocketError(std::string("poll: ") + std::strerror(errno));
      if (ready <= 0) continue;
      if (p.revents & POLLOUT) write_some();
      if (p.revents & (POLLIN | POLLHUP | POLLERR)) read_peer();
    }
  }

  void produce_due() {
    const double now = since_start();
    for (; next_ < schedule_.size() && schedule_[next_].at_s <= now; ++next_) {
      const load::Planned& m = schedule_[next_];
      buffer_.push(load::make_payload(m.bytes, load::stamp_of(m, static_cast<std::uint64_t>(start_unix_us_))));
      log_.add(m, since_start());
    }
  }

  void write_some() {
    while (!buffer_.empty()) {
      const auto pending = buffer_.pending();
      const ssize_t n = ::send(fd_.get(), pending.data(), pending.size(), MSG_NOSIGNAL);
      if (n > 0) {
        buffer_.consume(static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
      if (n < 0 && is_reset(errno)) {
        end_ = SenderEnd::ReceiverClosed;
        return;
      }
      throw SocketError(std::string("send: ") + std::strerror(errno));
    }
  }

  // The receiver sends nothing: readable means it closed (done or gone).
  void read_peer() {
    std::uint8_t scratch[512];
    const ssize_t n = ::recv(fd_.get(), scratch, sizeof scratch, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && is_reset(errno))) end_ = SenderEnd::ReceiverClosed;
    else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
      throw SocketError(std::string("recv: ") + std::strerror(errno));
  }

  void print_result() const;

  const Options& o_;
  RunClock clock_;
  std::vector<load::Planned> schedule_;
  load::PublicationLog log_;
  SendBuffer buffer_;
  Fd fd_;
  std::size_t next_ = 0;
  double connect_s_ = 0;
  double start_s_ = 0;
  std::int64_t start_unix_us_ = 0;
  SenderEnd end_ = SenderEnd::Running;
  std::string error_;
};

void Sender::print_result() const {
  const TcpFigures tcp = fd_ ? tcp_figures(fd_.get()) : TcpFigures{};
  Json j;
  j["system"] = "tcp";
  j["role"] = "sender";
  j["connect"] = fmt::format("{}:{}", o_.sender.connect.host, o_.sender.connect.port);
  j["connect_s"] = round_to_decimals(connect_s_, 6);
  j["start_unix"] = round_to_decimals(us_to_s(start_unix_us_), 6);
  j.update(log_.json_members());
  j["messages_planned"] = schedule_.size();
  j["messages_written"] = buffer_.messages_written();
  j["bytes_written"] = buffer_.bytes_written();
  j["messages_unwritten"] = buffer_.messages_pending();
  j["socket_unacked_bytes"] = tcp.unacked_bytes;
  j["tcp_rtt_s"] = round_to_decimals(tcp.rtt_us / 1e6, 6);
  j["tcp_cwnd_segments"] = tcp.cwnd_segments;
  j["tcp_retransmits"] = tcp.total_retransmits;
  j["stopped_by"] = sender_end_name(end_);
  j["timed_out"] = end_ == SenderEnd::TimeLimit;
  j["interrupted"] = end_ == SenderEnd::Signal;
  j["error"] = error_.empty() ? Json(nullptr) : Json(error_);
  j["duration_s"] = round_to_decimals(clock_.elapsed_s(), 6);
  std::printf("%s\n", json_text(j).c_str());
  std::fflush(stdout);
}

}  // namespace

int run_sender(const Options& options) { return Sender(options).run(); }

}  // namespace dissem::tcp_baseline
