#include "pgm_receiver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "apdu_header.h"
#include "pgm_socket.h"
#include "socket_filters.h"
#include "core/json.h"
#include "common/payload.h"
#include "common/receiver_run.h"
#include "common/result_members.h"
#include "common/run_clock.h"

namespace dissem::pgm_baseline {
namespace {

using baseline::ReceivedMessage;
using baseline::RunClock;

// Room for any APDU (PGM reassembles fragmented ones); ours are --payload bytes.
constexpr std::size_t kReceiveBuffer = 65536;

struct Received {
  ApduHeader first;           // header of the message's first APDU
  std::uint32_t next_offset = 0;
  ReceivedMessage message;    // new_* at the first APDU
};

class Receiver {
 public:
  explicit Receiver(const Options& o)
      : c_(o.common),
        r_(o.receiver),
        run_("dissem-pgm receiver", "messages", c_.time_limit_s, r_.expect, r_.linger_s),
        buffer_(kReceiveBuffer) {}

  int run() {
    run_.guard<PgmError>([this] {
      socket_.emplace(c_, "receiver", [this](PgmSocket& s) { configure(s); });
      if (r_.rx_loss_percent > 0) attach_rx_loss_filter(socket_->recv_fd(), r_.rx_loss_percent);
      // Results count from the moment PGM listens.
      run_.start_results_clock();
      loop();
    });
    run_.finish([this] { return result(); });
    socket_.reset();
    return complete() ? 0 : 1;
  }

 private:
  void configure(PgmSocket& s) {
    s.set(PGM_RECV_ONLY, 1, "PGM_RECV_ONLY");
    s.set(PGM_PASSIVE, 0, "PGM_PASSIVE");  // NAK for what is missing
    s.set(PGM_ABORT_ON_RESET, 0, "PGM_ABORT_ON_RESET");  // report unrecoverable loss, carry on
    s.set(PGM_RXW_SQNS, static_cast<int>(r_.rxw_sqns), "PGM_RXW_SQNS");
    // OpenPGM's intervals are microseconds (pgm_msecs()), whatever its comments say.
    s.set(PGM_PEER_EXPIRY, static_cast<int>(pgm_secs(r_.peer_expiry_s)), "PGM_PEER_EXPIRY");
    s.set(PGM_SPMR_EXPIRY, static_cast<int>(pgm_msecs(r_.spmr_expiry_ms)), "PGM_SPMR_EXPIRY");
    s.set(PGM_NAK_BO_IVL, static_cast<int>(pgm_msecs(r_.nak_bo_ivl_ms)), "PGM_NAK_BO_IVL");
    s.set(PGM_NAK_RPT_IVL, static_cast<int>(pgm_msecs(r_.nak_rpt_ivl_ms)), "PGM_NAK_RPT_IVL");
    s.set(PGM_NAK_RDATA_IVL, static_cast<int>(pgm_msecs(r_.nak_rdata_ivl_ms)), "PGM_NAK_RDATA_IVL");
    s.set(PGM_NAK_DATA_RETRIES, r_.nak_data_retries, "PGM_NAK_DATA_RETRIES");
    s.set(PGM_NAK_NCF_RETRIES, r_.nak_ncf_retries, "PGM_NAK_NCF_RETRIES");
  }

  void loop() {
    while (true) {
      double now = run_.elapsed_s();
      std::optional<double> next = run_.begin_turn(now, received_.count());
      if (!next) return;
      double wake = *next;
      std::size_t bytes = 0;
      pgm_error_t* error = nullptr;
      int status = pgm_recv(socket_->get(), buffer_.data(), buffer_.size(), 0, &bytes, &error);
      switch (status) {
        case PGM_IO_STATUS_NORMAL:
          on_apdu(bytes);
          break;
        case PGM_IO_STATUS_RESET:
          // Unrecoverable loss: PGM gave up on some packets and moved on.
          ++resets_;
          std::fprintf(stderr, "dissem-pgm receiver: reset: %s\n", take_error(error).c_str());
          break;
        case PGM_IO_STATUS_TIMER_PENDING:
          socket_->wait(std::min(wake, now + socket_->time_remain_s()) - now, false);
          break;
        case PGM_IO_STATUS_RATE_LIMITED:
          socket_->wait(std::min(wake, now + socket_->rate_remain_s()) - now, false);
          break;
        case PGM_IO_STATUS_WOULD_BLOCK:
          socket_->wait(wake - now, false);
          break;
        default:
          ++recv_errors_;
          if (recv_errors_ <= 3) {
            std::fprintf(stderr, "dissem-pgm receiver: pgm_recv status %d: %s\n", status, take_error(error).c_str());
          } else if (error) {
            pgm_error_free(error);
          }
          socket_->wait(std::min(wake - now, 0.01), false);  // do not spin on a persistent error
          break;
      }
      run_.end_turn(received_.count(), [this] { return result(); });
    }
  }

  bool complete() const { return run_.complete(received_.count()); }

  void on_apdu(std::size_t bytes) {
    ++apdus_;
    double now = run_.elapsed_s();
    run_.note_rx(now);
    std::optional<ApduHeader> header = decode_apdu_header(buffer_.data(), bytes);
    std::size_t data = bytes - std::min(bytes, kApduHeaderBytes);
    if (!header || header->message_bytes == 0 || std::uint64_t{header->offset} + data > header->message_bytes) {
      ++unidentified_;  // another program on this group and port?
      return;
    }
    if (done_.count(header->index)) {
      ++duplicates_;
      return;
    }
    auto [it, inserted] = pending_.try_emplace(header->index);
    Received& rx = it->second;
    ReceivedMessage& m = rx.message;
    if (inserted) {
      rx.first = *header;
      m.index = header->index;
      m.bytes = header->message_bytes;
      m.enqueue_unix_us = header->enqueue_unix_us;
      m.new_s = now;
      m.new_unix_us = RunClock::now_unix_us();
      m.content_ok = true;
    }
    if (header->offset < rx.next_offset) {
      ++duplicates_;
      return;
    }
    if (header->offset > rx.next_offset || header->message_bytes != rx.first.message_bytes) {
      // A gap PGM will never fill (after a reset, or joined mid-message):
      // this message cannot complete.
      if (broken_.insert(header->index).second) {
        std::fprintf(stderr, "dissem-pgm receiver: message %u has a gap at offset %u\n", header->index,
                     rx.next_offset);
      }
      return;
    }
    if (!baseline::payload_matches(header->index, header->offset,
                                   std::span<const char>(buffer_.data() + kApduHeaderBytes, data))) {
      m.content_ok = false;
    }
    rx.next_offset += static_cast<std::uint32_t>(data);
    if (rx.next_offset < rx.first.message_bytes) return;
    m.completed_s = run_.elapsed_s();
    m.completed_unix_us = RunClock::now_unix_us();
    received_.add(m);
    done_.insert(header->index);
    pending_.erase(it);
  }

  Json result() const {
    Json j = baseline::result_head("pgm", "receiver", c_.node_id, c_.group, c_.port);
    j["expect"] = r_.expect;
    j["objects_completed"] = received_.count();
    j["bytes_completed"] = received_.bytes();
    j["content_errors"] = received_.content_errors();
    j["duplicates"] = duplicates_;
    j["resets"] = resets_;
    j["incomplete"] = broken_.size();
    j["unidentified"] = unidentified_;
    j["apdus_received"] = apdus_;
    j["recv_errors"] = recv_errors_;
    run_.add_timing_members(j, received_.last_completion_s());
    j["rx_loss"] = r_.rx_loss_percent;
    j["messages"] = received_.json();
    return j;
  }

  const CommonOptions& c_;
  const ReceiverOptions& r_;
  baseline::ReceiverRun run_;
  std::vector<char> buffer_;
  std::optional<PgmSocket> socket_;
  std::map<std::uint32_t, Received> pending_;  // by message index, until complete
  baseline::ReceivedMessages received_;
  std::set<std::uint32_t> done_;
  std::set<std::uint32_t> broken_;
  std::uint64_t apdus_ = 0;
  std::uint64_t unidentified_ = 0;
  std::uint64_t duplicates_ = 0;
  std::uint64_t resets_ = 0;
  std::uint64_t recv_errors_ = 0;
};

}  // namespace

int run_receiver(const Options& options) { return Receiver(options).run(); }

}  // namespace dissem::pgm_baseline
