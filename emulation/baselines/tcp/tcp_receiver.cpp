#include "tcp_receiver.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
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
#include "tools/load/reception_log.h"

namespace dissem::tcp_baseline {

using baseline::RunClock;

namespace {

constexpr double kReceiverMaxWaitS = 0.1;  // longest single wait: signals and deadlines stay prompt
constexpr std::size_t kReadBytes = 65536;

enum class ReceiverEnd { Running, Complete, Linger, SenderClosed, TimeLimit, Signal, NoSender, Error };

const char* receiver_end_name(ReceiverEnd e) {
  switch (e) {
    case ReceiverEnd::Complete: return "complete";
    case ReceiverEnd::Linger: return "linger";
    case ReceiverEnd::SenderClosed: return "sender_closed";
    case ReceiverEnd::TimeLimit: return "time_limit";
    case ReceiverEnd::Signal: return "signal";
    case ReceiverEnd::NoSender: return "no_sender";
    case ReceiverEnd::Error: return "error";
    case ReceiverEnd::Running: break;
  }
  return "running";
}

class Receiver {
 public:
  explicit Receiver(const Options& o) : o_(o), log_(o.workload, o.receiver.expect) {}

  int run() {
    try {
      Fd listener = listen_on(o_.receiver.listen);
      if (accept(listener.get())) loop();
    } catch (const std::exception& e) {
      end_ = ReceiverEnd::Error;
      error_ = e.what();
      std::fprintf(stderr, "dissem-tcp receiver: %s\n", e.what());
    }
    print_result();
    // Closing now tells the sender the run is over (it sees EOF or a reset).
    fd_ = Fd();
    return end_ == ReceiverEnd::Complete ? 0 : end_ == ReceiverEnd::Error ? 1 : 4;
  }

 private:
  bool accept(int listener) {
    while (!dissem::baseline::stop_requested()) {
      const double left = o_.time_limit_s - clock_.elapsed_s();
      if (left <= 0) break;
      auto accepted = accept_within(listener, std::min(left, kReceiverMaxWaitS));
      if (!accepted) continue;
      fd_ = std::move(accepted->first);
      peer_ = accepted->second;
      set_nonblocking(fd_.get());
      return true;
    }
    end_ = dissem::baseline::stop_requested() ? ReceiverEnd::Signal : ReceiverEnd::NoSender;
    return false;
  }

  ReceiverEnd why_stop() const {
    if (log_.complete()) return ReceiverEnd::Complete;
    if (dissem::baseline::stop_requested()) return ReceiverEnd::Signal;
    if (clock_.elapsed_s() >= o_.time_limit_s) return ReceiverEnd::TimeLimit;
    const auto end = log_.plan_end_unix_us();
    if (o_.receiver.linger_s >= 0 && end &&
        RunClock::now_unix_us() >= static_cast<std::int64_t>(*end) + static_cast<std::int64_t>(o_.receiver.linger_s * 1e6))
      return ReceiverEnd::Linger;
    return ReceiverEnd::Running;
  }

  void loop() {
    std::vector<std::uint8_t> scratch(kReadBytes);
    while ((end_ = why_stop()) == ReceiverEnd::Running) {
      pollfd p{fd_.get(), POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(kReceiverMaxWaitS * 1000));
      if (ready < 0 && errno != EINTR) throw SocketError(std::string("poll: ") + std::strerror(errno));
      if (ready <= 0) continue;
      const ssize_t n = ::recv(fd_.get(), scratch.data(), scratch.size(), 0);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
      if (n < 0) throw SocketError(std::string("recv: ") + std::strerror(errno));
      if (n == 0) {
        end_ = log_.complete() ? ReceiverEnd::Complete : ReceiverEnd::SenderClosed;
        return;
      }
      bytes_read_ += static_cast<std::uint64_t>(n);
      reader_.feed({scratch.data(), static_cast<std::size_t>(n)});
      while (auto message = reader_.next())
        log_.add(peer_, *message, static_cast<std::uint64_t>(RunClock::now_unix_us()), clock_.elapsed_s());
    }
  }

  void print_result() const {
    Json j;
    j["system"] = "tcp";
    j["role"] = "receiver";
    j["listen"] = fmt::format("{}:{}", o_.receiver.listen.host, o_.receiver.listen.port);
    j["peer"] = peer_;
    j.update(log_.json_members());
    j["bytes_read"] = bytes_read_;
    j["partial_bytes"] = reader_.partial_bytes();
    j["timed_out"] = end_ != ReceiverEnd::Complete;
    j["stopped_by"] = receiver_end_name(end_);
    j["interrupted"] = end_ == ReceiverEnd::Signal;
    j["error"] = error_.empty() ? Json(nullptr) : Json(error_);
    j["duration_s"] = round_to_decimals(clock_.elapsed_s(), 6);
    std::printf("%s\n", json_text(j).c_str());
    std::fflush(stdout);
  }

  const Options& o_;
  RunClock clock_;
  load::ReceptionLog log_;
  FrameReader reader_;
  Fd fd_;
  std::string peer_;
  std::uint64_t bytes_read_ = 0;
  ReceiverEnd end_ = ReceiverEnd::Running;
  std::string error_;
};

}  // namespace

int run_receiver(const Options& options) { return Receiver(options).run(); }

}  // namespace dissem::tcp_baseline
