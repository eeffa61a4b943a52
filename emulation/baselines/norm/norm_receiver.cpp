#include "norm_receiver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "message_info.h"
#include "norm_session.h"
#include "core/json.h"
#include "common/payload.h"
#include "common/result_members.h"
#include "common/run_clock.h"
#include "common/stop_signal.h"

namespace dissem::norm_baseline {

using baseline::ReceivedMessage;
using baseline::RunClock;
using baseline::payload_matches;
using baseline::us_to_s;

namespace {

constexpr double kMaxWaitS = 0.1;  // longest single wait: signals and deadlines stay prompt
// NORM's default limit on pending objects per sender; raised when more are expected.
constexpr std::uint32_t kDefaultRxCache = 256;
constexpr std::uint32_t kMaxRxCache = 32767;

struct Received {
  std::optional<MessageInfo> info;  // from NORM_INFO, when the sender is one of ours
  ReceivedMessage message;          // new_* from NORM_RX_OBJECT_NEW
};

class Receiver {
 public:
  explicit Receiver(const Options& o) : c_(o.common), r_(o.receiver) {}

  int run() {
    try {
      norm_.emplace(c_);
      start();
      loop();
    } catch (const NormError& e) {
      error_ = e.what();
      std::fprintf(stderr, "dissem-norm receiver: %s\n", e.what());
    }
    if (!printed_) print_result();
    if (norm_) NormStopReceiver(norm_->session());
    norm_.reset();
    return complete() ? 0 : 1;
  }

 private:
  void start() {
    NormSessionHandle session = norm_->session();
    // Receivers started after the sender (late joiners) still get every
    // object the sender holds in its cache, not only the ones still to come.
    NormSetDefaultSyncPolicy(session, NORM_SYNC_ALL);
    if (r_.silent) NormSetSilentReceiver(session, true);
    if (r_.rx_loss_percent > 0) NormSetRxLoss(session, r_.rx_loss_percent);
    if (r_.expect > kDefaultRxCache) {
      NormSetRxCacheLimit(session, static_cast<unsigned short>(std::min(r_.expect, kMaxRxCache)));
    }
    norm_->start("NormStartReceiver",
                 [this](NormSessionHandle handle) { return NormStartReceiver(handle, r_.rx_buffer); });
    // Results count from the moment NORM listens; the time limit still
    // counts from process start.
    deadline_s_ = c_.time_limit_s - clock_.elapsed_s();
    clock_ = RunClock();
  }

  void loop() {
    double linger_until = 0;
    while (true) {
      double now = clock_.elapsed_s();
      if (dissem::baseline::stop_requested()) {
        interrupted_ = !printed_;
        return;
      }
      if (printed_ && now >= linger_until) return;
      if (now >= deadline_s_) {
        if (!printed_) {
          timed_out_ = true;
          std::fprintf(stderr, "dissem-norm receiver: time limit %.3f s reached with %zu of %u objects\n",
                       c_.time_limit_s, completed_count(), r_.expect);
        }
        return;
      }
      double wake = printed_ ? std::min(linger_until, deadline_s_) : deadline_s_;
      NormEvent event;
      if (norm_->next_event(std::clamp(wake - now, 0.0, kMaxWaitS), event)) handle(event);
      if (!printed_ && complete()) {
        // Print now, so a harness reading stdout need not wait for the linger.
        print_result();
        linger_until = clock_.elapsed_s() + r_.linger_s;
      }
    }
  }

  std::size_t completed_count() const { return received_.count() + unidentified_; }
  bool complete() const { return completed_count() >= r_.expect; }

  Received& track(NormObjectHandle object) {
    auto [it, inserted] = pending_.try_emplace(object);
    if (inserted) {
      ReceivedMessage& m = it->second.message;
      m.new_s = clock_.elapsed_s();
      m.new_unix_us = RunClock::now_unix_us();
      if (!first_rx_s_) first_rx_s_ = m.new_s;
    }
    return it->second;
  }

  static std::optional<MessageInfo> read_info(NormObjectHandle object) {
    char buffer[kMessageInfoBytes + 1];  // one spare byte to notice longer info
    if (!NormObjectHasInfo(object)) return std::nullopt;
    UINT16 length = NormObjectGetInfo(object, buffer, sizeof buffer);
    return decode_message_info(buffer, length);
  }

  void handle(const NormEvent& event) {
    switch (event.type) {
      case NORM_RX_OBJECT_NEW:
        track(event.object);
        break;
      case NORM_RX_OBJECT_INFO: {
        Received& rx = track(event.object);
        if (!rx.info) rx.info = read_info(event.object);
        break;
      }
      case NORM_RX_OBJECT_COMPLETED:
        on_completed(event);
        break;
      case NORM_RX_OBJECT_ABORTED:
        ++aborted_;
        pending_.erase(event.object);
        std::fprintf(stderr, "dissem-norm receiver: object aborted\n");
        break;
      case NORM_REMOTE_SENDER_NEW:
      case NORM_REMOTE_SENDER_RESET:
      case NORM_REMOTE_SENDER_INACTIVE:
        if (event.sender != NORM_NODE_INVALID) {
          auto id = NormNodeGetId(event.sender);
          senders_.insert(id);
          std::fprintf(stderr, "dissem-norm receiver: %s (node %u)\n", event_name(event.type), id);
        }
        break;
      default:
        break;
    }
  }

  // An object of another NORM application, kept as it came: its data and info.
  void save_foreign(NormObjectHandle object) {
    const std::string base = r_.save_dir + "/" + std::to_string(unidentified_);
    std::vector<char> info(NormObjectGetInfoLength(object));
    NormObjectGetInfo(object, info.data(), static_cast<UINT16>(info.size()));
    const char* data = NormObjectGetType(object) == NORM_OBJECT_DATA ? NormDataAccessData(object) : nullptr;
    const auto size = static_cast<std::size_t>(NormObjectGetSize(object));
    std::error_code ec;
    std::filesystem::create_directories(r_.save_dir, ec);
    std::ofstream(base + ".info", std::ios::binary).write(info.data(), static_cast<std::streamsize>(info.size()));
    std::ofstream out(base + ".data", std::ios::binary);
    if (data != nullptr) out.write(data, static_cast<std::streamsize>(size));
    if (!out) std::fprintf(stderr, "dissem-norm receiver: cannot write %s.data\n", base.c_str());
  }

  void on_completed(const NormEvent& event) {
    Received rx = track(event.object);
    pending_.erase(event.object);
    ReceivedMessage& m = rx.message;
    m.completed_s = clock_.elapsed_s();
    m.completed_unix_us = RunClock::now_unix_us();
    if (!rx.info) rx.info = read_info(event.object);
    if (event.sender != NORM_NODE_INVALID) sender_grtt_ = NormNodeGetGrtt(event.sender);
    if (NormObjectGetType(event.object) != NORM_OBJECT_DATA || !rx.info) {
      // Not one of ours (another program on this group and port?): counted,
      // but it cannot be checked or matched to a message.
      ++unidentified_;
      std::fprintf(stderr, "dissem-norm receiver: completed object without our header\n");
      if (!r_.save_dir.empty()) save_foreign(event.object);
      return;
    }
    m.index = rx.info->index;
    m.enqueue_unix_us = rx.info->enqueue_unix_us;
    m.bytes = static_cast<std::uint64_t>(NormObjectGetSize(event.object));
    const char* data = NormDataAccessData(event.object);  // valid until the next event is fetched
    m.content_ok = data != nullptr && payload_matches(m.index, {data, m.bytes});
    if (!seen_.insert(m.index).second) {
      ++duplicates_;
      return;
    }
    received_.add(m);
  }

  void print_result() {
    Json j = baseline::result_head("norm", "receiver", c_.node_id, c_.group, c_.port);
    j["expect"] = r_.expect;
    j["objects_completed"] = completed_count();
    j["bytes_completed"] = received_.bytes();
    j["objects_aborted"] = aborted_;
    j["content_errors"] = received_.content_errors();
    j["duplicates"] = duplicates_;
    j["unidentified"] = unidentified_;
    j["start_unix"] = us_to_s(clock_.start_unix_us());
    j["first_rx_s"] = json_or_null(first_rx_s_);
    j["last_completion_s"] = json_or_null(received_.last_completion_s());
    j["timed_out"] = timed_out_;
    j["interrupted"] = interrupted_;
    j["silent"] = r_.silent;
    j["rx_loss"] = r_.rx_loss_percent;
    j["sender_ids"] = senders_;
    j["sender_grtt"] = json_or_null(sender_grtt_);
    j["messages"] = received_.json();
    if (error_) j["error"] = *error_;
    std::printf("%s\n", json_text(j).c_str());
    std::fflush(stdout);
    printed_ = true;
  }

  const CommonOptions& c_;
  const ReceiverOptions& r_;
  RunClock clock_;
  double deadline_s_ = 0;  // time limit on clock_
  std::optional<NormRuntime> norm_;
  std::unordered_map<NormObjectHandle, Received> pending_;  // between NEW and COMPLETED/ABORTED
  baseline::ReceivedMessages received_;
  std::set<std::uint32_t> seen_;
  std::set<NormNodeId> senders_;
  std::uint64_t unidentified_ = 0;
  std::uint64_t duplicates_ = 0;
  std::uint64_t aborted_ = 0;
  std::optional<double> first_rx_s_;
  std::optional<double> sender_grtt_;
  bool timed_out_ = false;
  bool interrupted_ = false;
  bool printed_ = false;
  std::optional<std::string> error_;
};

}  // namespace

int run_receiver(const Options& options) { return Receiver(options).run(); }

}  // namespace dissem::norm_baseline
