#include "net/batch_sender.h"

#include <netinet/in.h>
#include <netinet/udp.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "net/udp_transport.h"

namespace dissem::net {
namespace {

constexpr std::size_t kSendControlBytes = CMSG_SPACE(sizeof(std::uint16_t));

bool refuses_segmentation(int error) {
  return error == EIO || error == EINVAL || error == EOPNOTSUPP || error == ENOPROTOOPT;
}

}  // namespace

// Groups datagrams [begin, end) into runs. A run holds equal-sized
// datagrams, except that its last may be shorter (the kernel cuts a buffer
// into segment-sized datagrams and the remainder).
void BatchSender::plan(std::span<const std::span<const std::uint8_t>> datagrams, std::size_t begin,
                       std::size_t end) {
  runs_.clear();
  bool open = false;  // the last run may still grow
  std::size_t run_bytes = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const std::size_t size = datagrams[i].size();
    if (open && segmentation_) {
      Run& r = runs_.back();
      if (r.first + r.count == i && r.count < kMaxSegments && size <= r.segment && size > 0 &&
          run_bytes + size <= kMaxSegmentedBytes) {
        ++r.count;
        run_bytes += size;
        open = size == r.segment;
        continue;
      }
    }
    runs_.push_back(Run{i, 1, size});
    run_bytes = size;
    open = size > 0;
  }
}

void BatchSender::build_headers(std::span<const std::span<const std::uint8_t>> datagrams) {
  std::size_t total = 0;
  for (const auto& r : runs_) total += r.count;
  iov_.resize(total);
  headers_.resize(runs_.size());
  control_.assign(runs_.size() * kSendControlBytes, 0);
  std::size_t k = 0;
  for (std::size_t j = 0; j < runs_.size(); ++j) {
    const Run& r = runs_[j];
    msghdr& h = headers_[j].msg_hdr;
    std::memset(&headers_[j], 0, sizeof headers_[j]);
    h.msg_iov = &iov_[k];
    h.msg_iovlen = r.count;
    for (std::size_t i = 0; i < r.count; ++i, ++k) {
      const auto& d = datagrams[r.first + i];
      iov_[k].iov_base = const_cast<std::uint8_t*>(d.data());
      iov_[k].iov_len = d.size();
    }
    if (r.count < 2) continue;
    h.msg_control = &control_[j * kSendControlBytes];
    h.msg_controllen = kSendControlBytes;
    cmsghdr* c = CMSG_FIRSTHDR(&h);
    c->cmsg_level = SOL_UDP;
    c->cmsg_type = UDP_SEGMENT;
    c->cmsg_len = CMSG_LEN(sizeof(std::uint16_t));
    const auto segment = static_cast<std::uint16_t>(r.segment);
    std::memcpy(CMSG_DATA(c), &segment, sizeof segment);
  }
}

// Sends the planned runs. Returns the datagrams the kernel took.
std::size_t BatchSender::send_runs(int fd, std::span<const std::span<const std::uint8_t>> datagrams,
                                   TransportCounters& counters) {
  std::size_t sent = 0;
  std::size_t pos = 0;
  auto account = [&](const Run& r) {
    for (std::size_t i = 0; i < r.count; ++i) counters.bytes_sent += datagrams[r.first + i].size();
    counters.datagrams_sent += r.count;
    sent += r.count;
  };
  while (pos < runs_.size()) {
    const int n = ::sendmmsg(fd, &headers_[pos], static_cast<unsigned>(runs_.size() - pos), 0);
    ++counters.send_calls;
    if (n > 0) {
      for (int j = 0; j < n; ++j) account(runs_[pos + static_cast<std::size_t>(j)]);
      pos += static_cast<std::size_t>(n);
      continue;
    }
    const int error = errno;
    if (error == EINTR) continue;
    const Run& r = runs_[pos];
    if (r.count > 1 && refuses_segmentation(error)) {
      // Off for good; the rest goes datagram by datagram.
      segmentation_ = false;
      ++counters.segmentation_refused;
      const std::size_t first = r.first;
      const std::size_t end = runs_.back().first + runs_.back().count;
      plan(datagrams, first, end);
      build_headers(datagrams);
      return sent + send_runs(fd, datagrams, counters);
    }
    if (error == EAGAIN || error == EWOULDBLOCK || error == ENOBUFS) {
      // The kernel has no room now: what is left of the batch is dropped
      // (the engine's pacer is the rate control; the protocol repairs).
      for (std::size_t j = pos; j < runs_.size(); ++j) counters.send_would_block += runs_[j].count;
      return sent;
    }
    if (error == EMSGSIZE)
      counters.too_large += r.count;
    else
      counters.send_errors += r.count;
    ++pos;
  }
  return sent;
}

std::size_t BatchSender::send(int fd, std::span<const std::span<const std::uint8_t>> datagrams,
                              std::size_t max_payload, TransportCounters& counters) {
  std::size_t sent = 0;
  std::size_t begin = 0;
  while (begin < datagrams.size()) {
    const std::size_t end = std::min(datagrams.size(), begin + kMaxBatch);
    // Oversized datagrams are counted here and left out of the runs.
    std::vector<std::span<const std::uint8_t>> fitting;
    std::span<const std::span<const std::uint8_t>> chunk = datagrams.subspan(begin, end - begin);
    const bool all_fit = std::all_of(chunk.begin(), chunk.end(), [&](const auto& d) { return d.size() <= max_payload; });
    if (!all_fit) {
      for (const auto& d : chunk) {
        if (d.size() <= max_payload)
          fitting.push_back(d);
        else
          ++counters.too_large;
      }
      chunk = fitting;
    }
    plan(chunk, 0, chunk.size());
    build_headers(chunk);
    sent += send_runs(fd, chunk, counters);
    begin = end;
  }
  return sent;
}

}  // namespace dissem::net
