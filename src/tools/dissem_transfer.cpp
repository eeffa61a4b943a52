// `dissem publish` and `dissem subscribe`: moving payloads between files or
// stdio and the daemon.
#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "tools/dissem_commands.h"
#include "tools/dissem_common.h"
#include "tools/dissem_progress.h"

namespace dissem::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using engine::TrafficKind;

// Fragments of messages, first sends and repairs alike: what a transfer moves.
std::uint64_t payload_bytes(const std::array<engine::TrafficCounter, engine::kTrafficKinds>& c) {
  return c[static_cast<std::size_t>(TrafficKind::Data)].bytes + c[static_cast<std::size_t>(TrafficKind::Repair)].bytes;
}

std::vector<std::uint8_t> read_input(const std::string& file) {
  std::FILE* in = file == "-" ? stdin : std::fopen(file.c_str(), "rb");
  if (in == nullptr) throw Failure(kExitUsage, fmt::format("cannot open {}: {}", file, std::strerror(errno)));
  std::vector<std::uint8_t> data;
  std::uint8_t buf[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) data.insert(data.end(), buf, buf + n);
  const bool failed = std::ferror(in) != 0;
  if (in != stdin) std::fclose(in);
  if (failed) throw Failure(kExitUsage, fmt::format("cannot read {}", file == "-" ? "stdin" : file));
  return data;
}

// Shows the daemon's outgoing payload bytes while a publish request is
// pending. Runs on its own thread with its own connection, because the
// publishing Client blocks in publish() and is not thread-safe. The daemon
// answers requests one at a time, so samples arrive between its other work.
class PublishProgress {
 public:
  PublishProgress(bool enabled, const std::string& socket) : line_(enabled, "sent") {
    if (enabled) thread_ = std::thread([this, socket] { poll(socket); });
  }
  ~PublishProgress() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  PublishProgress(const PublishProgress&) = delete;
  PublishProgress& operator=(const PublishProgress&) = delete;

 private:
  void poll(const std::string& socket) {
    try {
      client::Client c(socket);
      // Short: a stuck sample must not hold up the end of the command.
      c.set_request_timeout(std::chrono::seconds(2));
      std::unique_lock lock(mutex_);
      while (!stop_) {
        lock.unlock();
        const auto s = c.stats();
        lock.lock();
        if (stop_) break;
        line_.sample(payload_bytes(s.engine.sent));
        wake_.wait_for(lock, ProgressLine::kInterval, [this] { return stop_; });
      }
    } catch (const std::exception&) {
      // Progress is cosmetic: the publish itself reports any real failure.
    }
  }

  ProgressLine line_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

// A group name may contain '/', which must not become a directory.
std::string message_file_name(const MessageId& id) {
  std::string group = id.group;
  for (auto& ch : group) {
    if (ch == '/') ch = '_';
  }
  return fmt::format("{}-{:08x}-{}", group, id.publisher, id.seq);
}

// Where deliveries go: stdout, one file, or one file per message in a directory.
class Sink {
 public:
  explicit Sink(const SubscribeOptions& o) : dir_(o.out_dir) {
    if (!o.out_dir.empty()) {
      std::error_code ec;
      fs::create_directories(dir_, ec);
      if (ec) throw Failure(kExitLocalIo, fmt::format("cannot create {}: {}", o.out_dir, ec.message()));
    } else if (!o.out_file.empty()) {
      file_ = std::fopen(o.out_file.c_str(), "wb");
      if (file_ == nullptr) throw Failure(kExitLocalIo, fmt::format("cannot create {}: {}", o.out_file, std::strerror(errno)));
    } else {
      file_ = stdout;
    }
  }
  ~Sink() {
    if (file_ != nullptr && file_ != stdout) std::fclose(file_);
  }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  void write(const engine::Delivery& d) {
    if (!dir_.empty()) {
      const fs::path path = dir_ / message_file_name(d.meta.id);
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(d.payload.data()), static_cast<std::streamsize>(d.payload.size()));
      out.close();
      if (!out) throw Failure(kExitLocalIo, fmt::format("cannot write {}", path.string()));
      return;
    }
    // Flushed per message so a reader of a pipe sees each one as it arrives.
    if (std::fwrite(d.payload.data(), 1, d.payload.size(), file_) != d.payload.size() || std::fflush(file_) != 0) {
      throw Failure(kExitLocalIo, fmt::format("cannot write delivery {}", format_id(d.meta.id)));
    }
  }

 private:
  fs::path dir_;
  std::FILE* file_ = nullptr;
};

void note(const std::string& line) {
  std::fputs(line.c_str(), stderr);
  std::fputc('\n', stderr);
}

}  // namespace

void run_publish(const std::string& socket, const PublishOptions& o) {
  const auto payload = read_input(o.file);
  auto c = connect_or_explain(socket);
  engine::PublishRequest r;
  r.group = o.group;
  r.payload = payload;
  r.priority = o.priority;
  r.lifetime_ms = o.lifetime_ms;
  r.history_window = o.history;
  r.tag = o.tag;
  r.replace = o.replace;
  MessageId id;
  {
    PublishProgress progress(o.progress || (stderr_is_tty() && payload.size() >= (1u << 20)), socket);
    id = c.publish(r);
  }
  std::puts(format_id(id).c_str());
}

void run_cancel(const std::string& socket, const CancelOptions& o) {
  auto c = connect_or_explain(socket);
  engine::CancelRequest r;
  r.group = o.group;
  r.seqs = o.seqs;
  r.tag = o.tag;
  std::puts(format_id(c.cancel(r)).c_str());
}

void run_subscribe(const std::string& socket, const SubscribeOptions& o) {
  Sink sink(o);
  auto c = connect_or_explain(socket);
  engine::SubscriptionOptions so;
  so.reliable = !o.unreliable;
  so.ordered = o.ordered;
  so.history = o.history;
  so.min_priority = o.min_priority;
  so.tags = o.tags;
  so.name = o.name;
  so.silent = o.silent;
  const auto subscription = c.subscribe(o.group, so);
  // Tells scripts (and the tests) that publishing now will be seen.
  if (!o.quiet) note(fmt::format("subscribed to {} on {}", o.group, socket));

  std::optional<Clock::time_point> deadline;
  if (o.timeout_s > 0) {
    deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.timeout_s));
  }
  ProgressLine progress(o.progress || stderr_is_tty(), "received");
  std::uint64_t received = 0;
  while (o.count == 0 || received < o.count) {
    auto wait = std::chrono::milliseconds(ProgressLine::kInterval);
    if (deadline) {
      const auto left = *deadline - Clock::now();
      if (left <= Clock::duration::zero()) break;
      wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(left));
    }
    if (auto d = c.next_delivery(wait)) {
      sink.write(*d);
      // Written (and flushed): handled, so a resumed subscription skips it.
      if (!o.name.empty()) c.acknowledge(subscription, d->meta.id);
      ++received;
      progress.break_line();
      if (!o.quiet) note(fmt::format("delivered {} {} bytes", format_id(d->meta.id), d->payload.size()));
    }
    // Events are queued by the client library whether read or not; drain them.
    while (auto e = c.next_event(std::chrono::milliseconds(0))) {
      if (e->kind == engine::Event::Kind::MessageSkipped && !o.quiet) {
        progress.break_line();
        note(fmt::format("skipped {}: ordered delivery gave up on it", format_id(e->message)));
      }
    }
    if (progress.due()) {
      const auto s = c.stats();
      progress.sample(payload_bytes(s.engine.received));
    }
  }
  progress.break_line();
  if (o.count != 0 && received < o.count) {
    throw Failure(kExitTimedOut, fmt::format("timed out after {} of {} messages", received, o.count));
  }
}

}  // namespace dissem::cli
