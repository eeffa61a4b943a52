#include "norm_sender.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "message_info.h"
#include "norm_session.h"
#include "core/json.h"
#include "common/payload.h"
#include "common/result_members.h"
#include "common/role_run.h"
#include "common/run_clock.h"

namespace dissem::norm_baseline {

using baseline::RunClock;
using baseline::fill_payload;
using baseline::us_to_s;

namespace {

// How soon to retry an enqueue NORM refused, in case no vacancy event comes.
constexpr double kEnqueueRetryS = 0.01;

// sent_s: first pass finished (NORM_TX_OBJECT_SENT).
struct Message : baseline::SentMessage {
  // NormDataEnqueue does not copy: the bytes must live until NORM purges the
  // object (NORM_TX_OBJECT_PURGED) or the session is gone.
  std::unique_ptr<char[]> data;
  NormObjectHandle handle = NORM_OBJECT_INVALID;
};

const char* acking_status_name(NormAckingStatus status) {
  switch (status) {
    case NORM_ACK_SUCCESS: return "success";
    case NORM_ACK_FAILURE: return "failure";
    case NORM_ACK_PENDING: return "pending";
    case NORM_ACK_INVALID: return "invalid";
  }
  return "unknown";
}

// Sender buffer space: NORM keeps the parity of this many blocks ready for
// repairs (about parity x segment bytes each). Enough for every block of
// every message, within bounds; past it NORM recomputes parity from the
// application's buffers, which it keeps anyway.
std::uint32_t sender_buffer_space(const SenderOptions& s) {
  std::uint64_t block_bytes = std::uint64_t{s.segment} * s.block;
  std::uint64_t blocks = 0;
  for (auto size : s.message_sizes) blocks += (size + block_bytes - 1) / block_bytes;
  std::uint64_t per_block = std::uint64_t{s.parity} * (s.segment + 64u) + 1024u;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(blocks * per_block, 1u << 20, 64u << 20));
}

class Sender {
 public:
  explicit Sender(const Options& o) : c_(o.common), s_(o.sender), run_("dissem-norm sender", c_.time_limit_s) {
    for (auto size : s_.message_sizes) messages_.push_back(Message{{size, {}, 0, {}}, nullptr, NORM_OBJECT_INVALID});
    total_bytes_ = std::accumulate(s_.message_sizes.begin(), s_.message_sizes.end(), std::uint64_t{0});
  }

  int run() {
    run_.guard<NormError>([this] {
      norm_.emplace(c_);
      start();
      loop();
    });
    std::string result = result_json();
    if (norm_) NormStopSender(norm_->session());
    norm_.reset();  // before messages_ go: NORM may still point into them
    std::printf("%s\n", result.c_str());
    std::fflush(stdout);
    return completed_ ? 0 : 1;
  }

 private:
  void start() {
    NormSessionHandle session = norm_->session();
    NormSetTxRate(session, s_.rate_bps);
    // Must precede NormStartSender, which sizes its object table from the
    // count bound; NORM's default of 256 objects drops late NACKs' targets.
    auto size_max = static_cast<NormSize>(std::max<std::uint64_t>(total_bytes_, 20u << 20));
    NormSetTxCacheBounds(session, size_max, s_.tx_cache, s_.tx_cache);
    NormSetAutoParity(session, static_cast<unsigned char>(s_.auto_parity));
    buffer_space_ = sender_buffer_space(s_);
    norm_->start("NormStartSender", [this](NormSessionHandle handle) {
      return NormStartSender(handle, NormGetRandomSessionId(), buffer_space_, s_.segment, s_.block, s_.parity);
    });
    for (auto id : s_.ackers) {
      if (!NormAddAckingNode(session, id)) throw NormError(fmt::format("NormAddAckingNode({}) failed", id));
    }
    // Results count from the moment NORM can send.
    run_.start_results_clock();
  }

  void loop() {
    std::size_t next = 0;
    bool blocked = false;
    double retry_at = 0;
    while (true) {
      double now = run_.elapsed_s();
      if (run_.stop_signalled(true)) return;
      if (ack_failed_) return;
      if (completed_ && now >= linger_until_) return;
      if (run_.out_of_time(now, completed_)) return;  // a linger cut short is no failure
      if (blocked && now >= retry_at) blocked = false;
      while (next < messages_.size() && !blocked && now >= due_s(next)) {
        if (!enqueue(next)) {
          blocked = true;
          retry_at = now + kEnqueueRetryS;
          break;
        }
        ++next;
      }
      if (next == messages_.size() && !s_.ackers.empty() && !watermark_set_) set_watermark();

      double wake = run_.deadline_s();
      if (next < messages_.size()) wake = std::min(wake, blocked ? retry_at : due_s(next));
      if (completed_) wake = std::min(wake, linger_until_);
      NormEvent event;
      if (norm_->next_event(std::clamp(wake - now, 0.0, baseline::kMaxWaitS), event)) {
        if (handle(event)) blocked = false;
      }
    }
  }

  double due_s(std::size_t index) const { return static_cast<double>(index) * s_.interval_s; }

  bool enqueue(std::size_t index) {
    Message& m = messages_[index];
    if (!m.data) {  // filled once; a refused enqueue is retried with the same bytes
      m.data = std::make_unique<char[]>(m.size);
      fill_payload(static_cast<std::uint32_t>(index), {m.data.get(), m.size});
    }
    MessageInfo info{static_cast<std::uint32_t>(index), RunClock::now_unix_us()};
    auto header = encode_message_info(info);
    NormObjectHandle handle = NormDataEnqueue(norm_->session(), m.data.get(), m.size, header.data(),
                                              static_cast<unsigned>(header.size()));
    if (handle == NORM_OBJECT_INVALID) return false;  // queue full: wait for vacancy
    // Index + 1, so that no message is represented by a null pointer.
    NormObjectSetUserData(handle, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(index + 1)));
    m.handle = handle;
    m.enqueue_s = run_.elapsed_s();
    m.enqueue_unix_us = info.enqueue_unix_us;
    ++objects_enqueued_;
    bytes_enqueued_ += m.size;
    return true;
  }

  void set_watermark() {
    // overrideFlush: once every acker has acknowledged, NORM need not keep
    // flushing for receivers it will never hear from.
    if (!NormSetWatermark(norm_->session(), messages_.back().handle, true)) {
      throw NormError("NormSetWatermark failed");
    }
    watermark_set_ = true;
  }

  std::optional<std::size_t> message_of(NormObjectHandle object) const {
    if (object == NORM_OBJECT_INVALID) return std::nullopt;
    auto tag = reinterpret_cast<std::uintptr_t>(NormObjectGetUserData(object));
    if (tag == 0 || tag > messages_.size()) return std::nullopt;
    return static_cast<std::size_t>(tag - 1);
  }

  // Returns true when NORM has room for more objects.
  bool handle(const NormEvent& event) {
    switch (event.type) {
      case NORM_TX_QUEUE_VACANCY:
      case NORM_TX_QUEUE_EMPTY:
        return true;
      case NORM_TX_OBJECT_SENT:
        if (auto i = message_of(event.object)) {
          if (!messages_[*i].sent_s) messages_[*i].sent_s = run_.elapsed_s();
        }
        break;
      case NORM_TX_OBJECT_PURGED:
        if (auto i = message_of(event.object)) {
          messages_[*i].data.reset();
          messages_[*i].handle = NORM_OBJECT_INVALID;
        }
        break;
      case NORM_TX_WATERMARK_COMPLETED:
        on_watermark_completed();
        break;
      case NORM_TX_FLUSH_COMPLETED:
        // Says only that NORM stopped flushing, not that anyone received
        // anything; used as completion only when no ackers were named, and
        // only after the last object's first pass (earlier flushes happen
        // between spaced-out messages).
        if (s_.ackers.empty() && !completed_ && messages_.back().sent_s) complete("flush");
        break;
      case NORM_SEND_ERROR:
        ++send_errors_;
        if (send_errors_ <= 3) std::fprintf(stderr, "dissem-norm sender: NORM_SEND_ERROR\n");
        break;
      default:
        break;
    }
    return false;
  }

  void on_watermark_completed() {
    if (completed_) return;
    NormSessionHandle session = norm_->session();
    if (NormGetAckingStatus(session, NORM_NODE_ANY) == NORM_ACK_SUCCESS) {
      complete("ack");
      return;
    }
    std::string failed;
    for (auto id : s_.ackers) {
      if (NormGetAckingStatus(session, id) != NORM_ACK_SUCCESS) {
        // Appended piecewise: "literal" + std::string trips GCC 12's -Wrestrict at -O3.
        if (!failed.empty()) failed += ',';
        failed += std::to_string(id);
      }
    }
    if (ack_resets_ < s_.ack_retries) {
      // Re-polls only the nodes that have not acknowledged.
      ++ack_resets_;
      std::fprintf(stderr, "dissem-norm sender: no acknowledgement from %s; re-polling (%d/%d)\n", failed.c_str(),
                   ack_resets_, s_.ack_retries);
      if (!NormResetWatermark(session)) throw NormError("NormResetWatermark failed");
    } else {
      std::fprintf(stderr, "dissem-norm sender: no acknowledgement from %s after %d re-polls\n", failed.c_str(),
                   ack_resets_);
      ack_failed_ = true;
    }
  }

  void complete(const char* basis) {
    completed_ = true;
    completion_basis_ = basis;
    completion_s_ = run_.elapsed_s();
    linger_until_ = *completion_s_ + s_.linger_s;
    std::fprintf(stderr, "dissem-norm sender: completed (%s) at %.3f s\n", basis, *completion_s_);
  }

  std::string result_json() const {
    Json j = baseline::result_head("norm", "sender", c_.node_id, c_.group, c_.port);
    j["messages_planned"] = messages_.size();
    j["objects_enqueued"] = objects_enqueued_;
    j["bytes_enqueued"] = bytes_enqueued_;
    j["start_unix"] = us_to_s(run_.clock().start_unix_us());
    baseline::add_send_times(j, messages_, 0.0);  // seconds since start_unix
    j["completed"] = completed_;
    j["completion_basis"] = json_or_null(completion_basis_);
    j["completion_s"] = json_or_null(completion_s_);
    run_.add_end_members(j);
    j["grtt"] = c_.grtt.value_or(0.0);
    if (norm_) j["grtt_final"] = NormGetGrttEstimate(norm_->session());
    j["rate_bps"] = s_.rate_bps;
    j["segment"] = s_.segment;
    j["block"] = s_.block;
    j["parity"] = s_.parity;
    j["auto_parity"] = s_.auto_parity;
    j["interval"] = s_.interval_s;
    j["tx_cache"] = s_.tx_cache;
    j["buffer_space"] = buffer_space_;
    j["linger"] = s_.linger_s;
    j["ack_resets"] = ack_resets_;
    j["send_errors"] = send_errors_;
    Json ackers = Json::object();
    for (auto id : s_.ackers) {
      NormAckingStatus status = norm_ && watermark_set_ ? NormGetAckingStatus(norm_->session(), id) : NORM_ACK_PENDING;
      ackers[std::to_string(id)] = acking_status_name(status);
    }
    j["acker_status"] = std::move(ackers);
    run_.add_error(j);
    return json_text(j);
  }

  const CommonOptions& c_;
  const SenderOptions& s_;
  baseline::RoleRun run_;
  std::vector<Message> messages_;    // declared before norm_, so destroyed after it
  std::optional<NormRuntime> norm_;
  std::uint64_t total_bytes_ = 0;
  std::uint32_t buffer_space_ = 0;
  std::uint64_t objects_enqueued_ = 0;
  std::uint64_t bytes_enqueued_ = 0;
  bool watermark_set_ = false;
  bool completed_ = false;
  bool ack_failed_ = false;
  int ack_resets_ = 0;
  std::uint64_t send_errors_ = 0;
  std::optional<std::string> completion_basis_;
  std::optional<double> completion_s_;
  double linger_until_ = 0;
};

}  // namespace

int run_sender(const Options& options) { return Sender(options).run(); }

}  // namespace dissem::norm_baseline
