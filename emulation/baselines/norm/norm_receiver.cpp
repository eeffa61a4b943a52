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
#include "common/receiver_run.h"
#include "common/result_members.h"
#include "common/run_clock.h"

namespace dissem::norm_baseline {

using baseline::ReceivedMessage;
using baseline::RunClock;
using baseline::payload_matches;

namespace {

// NORM's default limit on pending objects per sender; raised when more are expected.
constexpr std::uint32_t kDefaultRxCache = 256;
constexpr std::uint32_t kMaxRxCache = 32767;

struct Received {
  std::optional<MessageInfo> info;  // from NORM_INFO, when the sender is one of ours
  ReceivedMessage message;          // new_* from NORM_RX_OBJECT_NEW
};

class Receiver {
 public:
  explicit Receiver(const Options& o)
      : c_(o.common), r_(o.receiver), run_("dissem-norm receiver", "objects", c_.time_limit_s, r_.expect, r_.linger_s) {}

  int run() {
    run_.guard<NormError>([this] {
      norm_.emplace(c_);
      start();
      loop();
    });
    run_.finish([this] { return result(); });
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
    // Results count from the moment NORM listens.
    run_.start_results_clock();
  }

  void loop() {
    while (true) {
      double now = run_.elapsed_s();
      std::optional<double> wake = run_.begin_turn(now, completed_count());
      if (!wake) return;
      NormEvent event;
      if (norm_->next_event(std::clamp(*wake - now, 0.0, baseline::kMaxWaitS), event)) handle(event);
      run_.end_turn(completed_count(), [this] { return result(); });
    }
  }

  std::size_t completed_count() const { return received_.count() + unidentified_; }
  bool complete() const { return run_.complete(completed_count()); }

  Received& track(NormObjectHandle object) {
    auto [it, inserted] = pending_.try_emplace(object);
    if (inserted) {
      ReceivedMessage& m = it->second.message;
      m.new_s = run_.elapsed_s();
      m.new_unix_us = RunClock::now_unix_us();
      run_.note_rx(m.new_s);
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
    m.completed_s = run_.elapsed_s();
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

  Json result() const {
    Json j = baseline::result_head("norm", "receiver", c_.node_id, c_.group, c_.port);
    j["expect"] = r_.expect;
    j["objects_completed"] = completed_count();
    j["bytes_completed"] = received_.bytes();
    j["objects_aborted"] = aborted_;
    j["content_errors"] = received_.content_errors();
    j["duplicates"] = duplicates_;
    j["unidentified"] = unidentified_;
    run_.add_timing_members(j, received_.last_completion_s());
    j["silent"] = r_.silent;
    j["rx_loss"] = r_.rx_loss_percent;
    j["sender_ids"] = senders_;
    j["sender_grtt"] = json_or_null(sender_grtt_);
    j["messages"] = received_.json();
    return j;
  }

  const CommonOptions& c_;
  const ReceiverOptions& r_;
  baseline::ReceiverRun run_;
  std::optional<NormRuntime> norm_;
  std::unordered_map<NormObjectHandle, Received> pending_;  // between NEW and COMPLETED/ABORTED
  baseline::ReceivedMessages received_;
  std::set<std::uint32_t> seen_;
  std::set<NormNodeId> senders_;
  std::uint64_t unidentified_ = 0;
  std::uint64_t duplicates_ = 0;
  std::uint64_t aborted_ = 0;
  std::optional<double> sender_grtt_;
};

}  // namespace

int run_receiver(const Options& options) { return Receiver(options).run(); }

}  // namespace dissem::norm_baseline
