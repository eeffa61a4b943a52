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

constexpr double kMaxWaitS = 0.1;  // longest single wait: signals and deadlines stay prompt
constexpr std::size_t kReadBytes = 65536;

enum class End { Running, Complete, Linger, SenderClosed, TimeLimit, Signal, NoSender, Error };

const char* end_name(End e) {
  switch (e) {
    case End::Complete: return "complete";
    case End::Linger: return "linger";
    case End::SenderClosed: return "sender_closed";
    case End::TimeLimit: return "time_limit";
    case End::Signal: return "signal";
    case End::NoSender: return "no_sender";
    case End::Error: return "error";
    case End::Running: break;
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
      end_ = End::Error;
      error_ = e.what();
      std::fprintf(stderr, "dissem-tcp receiver: %s\n", e.what());
    }
    print_result();
    // Closing now tells the sender the run is over (it sees EOF or a reset).
    fd_ = Fd();
    return end_ == End::Complete ? 0 : end_ == End::Error ? 1 : 4;
  }

 private:
  bool accept(int listener) {
    while (!dissem::baseline::stop_requested()) {
      const double left = o_.time_limit_s - clock_.elapsed_s();
      if (left <= 0) break;
      auto accepted = accept_within(listener, std::min(left, kMaxWaitS));
      if (!accepted) continue;
      fd_ = std::move(accepted->first);
      peer_ = accepted->second;
      set_nonblocking(fd_.get());
      return true;
    }
    end_ = dissem::baseline::stop_requested() ? End::Signal : End::NoSender;
    return false;
  }

  End why_stop() const {
    if (log_.complete()) return End::Complete;
    if (dissem::baseline::stop_requested()) return End::Signal;
    if (clock_.elapsed_s() >= o_.time_limit_s) return End::TimeLimit;
    const auto end = log_.plan_end_unix_us();
    if (o_.receiver.linger_s >= 0 && end &&
        RunClock::now_unix_us() >= static_cast<std::int64_t>(*end) + static_cast<std::int64_t>(o_.receiver.linger_s * 1e6))
      return End::Linger;
    return End::Running;
  }

  void loop() {
    std::vector<std::uint8_t> scratch(kReadBytes);
    while ((end_ = why_stop()) == End::Running) {
      pollfd p{fd_.get(), POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(kMaxWaitS * 1000));
      if (ready < 0 && errno != EINTR) throw SocketError(std::string("poll: ") + std::strerror(errno));
      if (ready <= 0) continue;
      const ssize_t n = ::recv(fd_.get(), scratch.data(), scratch.size(), 0);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
      if (n < 0) throw SocketError(std::string("recv: ") + std::strerror(errno));
      if (n == 0) {
        end_ = log_.complete() ? End::Complete : End::SenderClosed;
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
    j["timed_out"] = end_ != End::Complete;
    j["stopped_by"] = end_name(end_);
    j["interrupted"] = end_ == End::Signal;
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
  End end_ = End::Running;
  std::string error_;
};

}  // namespace

int run_receiver(const Options& options) { return Receiver(options).run(); }

}  // namespace dissem::tcp_baseline
