#include "pgm_sender.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "apdu_header.h"
#include "pgm_socket.h"
#include "socket_filters.h"
#include "core/json.h"
#include "common/payload.h"
#include "common/result_members.h"
#include "common/role_run.h"
#include "common/run_clock.h"

namespace dissem::pgm_baseline {
namespace {

using baseline::RunClock;
using baseline::kMaxWaitS;
using baseline::us_to_s;

// APDUs handed to PGM in a row before its receive side (NAKs, timers,
// repairs) is served again.
constexpr int kSendBurst = 16;
// How far our pacing may fall behind its schedule and then catch up.
constexpr double kPacingSlackS = 0.002;
// SPM heartbeats after each data packet, so that receivers soon learn the
// lead sequence number (and so a lost last packet); then ambient SPMs.
constexpr int kHeartbeatMs[] = {50, 100, 200, 400, 800};

// enqueue_s: first APDU handed to PGM; sent_s: last APDU handed to PGM.
using Message = baseline::SentMessage;

class Sender {
 public:
  explicit Sender(const Options& o)
      : c_(o.common), s_(o.sender), limits_(rate_limits(o.common, o.sender)), run_("dissem-pgm sender", c_.time_limit_s) {
    for (auto size : s_.message_sizes) messages_.push_back(Message{size, {}, 0, {}});
    apdu_.resize(c_.payload);
  }

  int run() {
    run_.guard<PgmError>([this] {
      socket_.emplace(c_, "sender", [this](PgmSocket& s) { configure(s); });
      if (c_.loopback) steer_unicast_to_first_socket(socket_->recv_fd());
      // Results count from the moment PGM can send.
      run_.start_results_clock();
      std::fprintf(stderr,
                   "dissem-pgm sender: max_tpdu %d, rate limits (IP bytes/s) total %ld, odata %ld, rdata %ld, "
                   "txw_sqns %u\n",
                   max_tpdu(c_), limits_.total, limits_.odata, limits_.rdata, s_.txw_sqns);
      loop();
    });
    std::printf("%s\n", result_json().c_str());
    std::fflush(stdout);
    socket_.reset();
    return completed_ ? 0 : 1;
  }

 private:
  void configure(PgmSocket& s) {
    s.set(PGM_SEND_ONLY, 1, "PGM_SEND_ONLY");
    s.set(PGM_TXW_SQNS, static_cast<int>(s_.txw_sqns), "PGM_TXW_SQNS");
    // PGM_TXW_MAX_RTE first: it also turns rate control on for original and
    // repair data; the two shares then get their own token buckets.
    s.set(PGM_TXW_MAX_RTE, static_cast<int>(limits_.total), "PGM_TXW_MAX_RTE");
    s.set(PGM_ODATA_MAX_RTE, static_cast<int>(limits_.odata), "PGM_ODATA_MAX_RTE");
    s.set(PGM_RDATA_MAX_RTE, static_cast<int>(limits_.rdata), "PGM_RDATA_MAX_RTE");
    // OpenPGM's intervals are microseconds (pgm_msecs()), whatever its comments say.
    s.set(PGM_AMBIENT_SPM, static_cast<int>(pgm_msecs(s_.ambient_spm_ms)), "PGM_AMBIENT_SPM");
    std::vector<int> heartbeat;
    for (int ms : kHeartbeatMs) heartbeat.push_back(static_cast<int>(pgm_msecs(std::min(ms, s_.ambient_spm_ms))));
    s.set_bytes(PGM_HEARTBEAT_SPM, heartbeat.data(), static_cast<socklen_t>(heartbeat.size() * sizeof(int)),
                "PGM_HEARTBEAT_SPM");
  }

  void loop() {
    while (true) {
      double now = run_.elapsed_s();
      if (run_.stop_signalled(true)) return;
      if (completed_ && now >= linger_until_) return;
      if (run_.out_of_time(now, completed_)) return;  // a linger cut short is no failure
      double deadline = run_.deadline_s();
      double wake = std::min({deadline, now + kMaxWaitS, completed_ ? linger_until_ : deadline});
      repairs_blocked_ = false;
      wake = std::min(wake, serve());
      bool want_write = false;
      if (!completed_) {
        double ready = send_some(want_write);
        wake = std::min(wake, ready);
      }
      now = run_.elapsed_s();
      if (wake > now) socket_->wait(wake - now, want_write, repairs_blocked_);
    }
  }

  // Lets PGM read NAKs and SPMRs, run its timers (SPMs) and send repairs.
  // Returns when it wants to be called again.
  double serve() {
    char buffer[2048];
    while (true) {
      std::size_t bytes = 0;
      pgm_error_t* error = nullptr;
      int status = pgm_recv(socket_->get(), buffer, sizeof buffer, 0, &bytes, &error);
      double now = run_.elapsed_s();
      switch (status) {
        case PGM_IO_STATUS_NORMAL:
          continue;  // a send-only socket delivers no data; nothing to do
        case PGM_IO_STATUS_TIMER_PENDING:
          return now + socket_->time_remain_s();
        case PGM_IO_STATUS_RATE_LIMITED:
          // Repairs are waiting for the repair bucket: one full packet's time.
          ++repairs_rate_limited_;
          repairs_blocked_ = true;
          return now + static_cast<double>(max_tpdu(c_)) / static_cast<double>(limits_.rdata);
        case PGM_IO_STATUS_WOULD_BLOCK:
          return now + kMaxWaitS;
        default:
          ++recv_errors_;
          if (recv_errors_ <= 3) {
            std::fprintf(stderr, "dissem-pgm sender: pgm_recv status %d: %s\n", status, take_error(error).c_str());
          } else if (error) {
            pgm_error_free(error);
          }
          return now + 0.01;  // do not spin on a persistent error
      }
    }
  }

  // Hands APDUs to PGM while its rate limits and our pacing allow. Returns
  // when the next one may go (or a far time when waiting for the socket).
  double send_some(bool& want_write) {
    for (int sent = 0; sent < kSendBurst && !completed_; ++sent) {
      double now = run_.elapsed_s();
      double due = std::max(hold_until_s_, due_s(current_));
      if (now < due) return due;
      if (!apdu_ready_) build_apdu(now);
      std::size_t written = 0;
      int status = pgm_send(socket_->get(), apdu_.data(), apdu_length_, &written);
      switch (status) {
        case PGM_IO_STATUS_NORMAL:
          on_sent(run_.elapsed_s());
          break;
        case PGM_IO_STATUS_RATE_LIMITED:
          // PGM already holds the packet in its window; the next pgm_send
          // sends it without charging the token buckets again.
          ++rate_limited_;
          retrying_ = true;
          return now + std::max(socket_->rate_remain_s(), 1e-4);
        case PGM_IO_STATUS_WOULD_BLOCK:
          ++would_block_;
          retrying_ = true;
          want_write = true;
          return now + kMaxWaitS;
        default:
          ++send_errors_;
          throw PgmError(fmt::format("pgm_send failed (status {})", status));
      }
    }
    return run_.elapsed_s();
  }

  double due_s(std::size_t index) const { return s_.start_delay_s + static_cast<double>(index) * s_.interval_s; }

  void build_apdu(double now) {
    Message& m = messages_[current_];
    if (offset_ == 0) {
      m.enqueue_s = now;
      m.enqueue_unix_us = RunClock::now_unix_us();
      if (!first_send_s_) {
        first_send_s_ = now;
        first_send_unix_us_ = m.enqueue_unix_us;
      }
    }
    std::size_t data = std::min<std::size_t>(data_per_apdu(c_.payload), m.size - offset_);
    ApduHeader header{static_cast<std::uint32_t>(current_), m.size, offset_, m.enqueue_unix_us};
    auto encoded = encode_apdu_header(header);
    std::copy(encoded.begin(), encoded.end(), apdu_.begin());
    baseline::fill_payload(header.index, offset_, std::span<char>(apdu_.data() + kApduHeaderBytes, data));
    apdu_length_ = kApduHeaderBytes + data;
    apdu_ready_ = true;
  }

  void on_sent(double now) {
    double packet_s = static_cast<double>(apdu_length_ + kPacketOverhead) / static_cast<double>(limits_.odata);
    if (s_.pacing) {
      // Our own pacing at the original-data rate, with no burst: PGM's
      // buckets below 1000 packets/s start full and refill to one second's
      // worth whenever idle.
      // The schedule may run up to kPacingSlackS behind, so that wake-up
      // delays are made up for, not lost.
      pace_s_ = std::max(pace_s_, now - kPacingSlackS) + packet_s;
      hold_until_s_ = pace_s_;
    } else if (retrying_) {
      // Charge the packet PGM sent for free (see RATE_LIMITED above).
      hold_until_s_ = now + packet_s;
    }
    if (retrying_) ++free_retries_;
    retrying_ = false;
    apdu_ready_ = false;
    ++apdus_sent_;
    Message& m = messages_[current_];
    offset_ += static_cast<std::uint32_t>(apdu_length_ - kApduHeaderBytes);
    if (offset_ < m.size) return;
    m.sent_s = now;
    ++objects_enqueued_;
    bytes_enqueued_ += m.size;
    offset_ = 0;
    if (++current_ < messages_.size()) return;
    completed_ = true;
    completion_s_ = now;
    linger_until_ = now + s_.linger_s;
    std::fprintf(stderr, "dissem-pgm sender: every message handed to PGM at %.3f s; serving repairs for %.1f s\n", now,
                 s_.linger_s);
  }

  std::string result_json() const {
    Json j = baseline::result_head("pgm", "sender", c_.node_id, c_.group, c_.port);
    j["messages_planned"] = messages_.size();
    j["objects_enqueued"] = objects_enqueued_;
    j["bytes_enqueued"] = bytes_enqueued_;
    // The first APDU, as the receivers' delivery times count from it
    // (before any: when the socket was ready).
    j["start_unix"] = us_to_s(first_send_s_ ? first_send_unix_us_ : run_.clock().start_unix_us());
    double t0 = first_send_s_.value_or(0.0);
    baseline::add_send_times(j, messages_, t0);  // seconds since start_unix
    j["completed"] = completed_;
    j["completion_basis"] = "handed_to_pgm";  // PGM has no acknowledgements
    j["completion_s"] = completion_s_ ? Json(*completion_s_ - t0) : Json(nullptr);
    run_.add_end_members(j);
    j["rate_bps"] = s_.rate_bps;
    j["odata_share"] = s_.odata_share;
    j["txw_max_rte"] = limits_.total;
    j["odata_max_rte"] = limits_.odata;
    j["rdata_max_rte"] = limits_.rdata;
    j["payload"] = c_.payload;
    j["max_tpdu"] = max_tpdu(c_);
    j["txw_sqns"] = s_.txw_sqns;
    j["interval"] = s_.interval_s;
    j["start_delay"] = s_.start_delay_s;
    j["pacing"] = s_.pacing;
    j["linger"] = s_.linger_s;
    j["send_errors"] = send_errors_;
    j["stats"] = {{"apdus_sent", apdus_sent_},
                  {"rate_limited", rate_limited_},
                  {"free_retries", free_retries_},
                  {"would_block", would_block_},
                  {"repairs_rate_limited", repairs_rate_limited_},
                  {"recv_errors", recv_errors_}};
    run_.add_error(j);
    return json_text(j);
  }

  const CommonOptions& c_;
  const SenderOptions& s_;
  const RateLimits limits_;
  baseline::RoleRun run_;
  std::vector<Message> messages_;
  std::optional<PgmSocket> socket_;
  // The APDU being handed to PGM: message current_, bytes from offset_.
  std::vector<char> apdu_;
  std::size_t apdu_length_ = 0;
  bool apdu_ready_ = false;
  bool retrying_ = false;  // the last pgm_send left this APDU pending
  bool repairs_blocked_ = false;  // PGM holds repairs back for its rate limit
  std::size_t current_ = 0;
  std::uint32_t offset_ = 0;
  std::optional<double> first_send_s_;  // on run_.clock()
  std::int64_t first_send_unix_us_ = 0;
  double pace_s_ = 0;
  double hold_until_s_ = 0;
  std::uint64_t objects_enqueued_ = 0;
  std::uint64_t bytes_enqueued_ = 0;
  std::uint64_t apdus_sent_ = 0;
  std::uint64_t rate_limited_ = 0;
  std::uint64_t free_retries_ = 0;
  std::uint64_t would_block_ = 0;
  std::uint64_t repairs_rate_limited_ = 0;
  std::uint64_t recv_errors_ = 0;
  std::uint64_t send_errors_ = 0;
  bool completed_ = false;
  std::optional<double> completion_s_;
  double linger_until_ = 0;
};

}  // namespace

int run_sender(const Options& options) { return Sender(options).run(); }

}  // namespace dissem::pgm_baseline
