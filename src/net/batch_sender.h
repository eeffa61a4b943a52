// Hands a batch of datagrams to the kernel in as few system calls as it
// allows: one sendmmsg(2) per batch, and within it UDP generic segmentation
// offload (UDP_SEGMENT) for runs of equal-sized datagrams, so a run of up to
// kMaxSegments datagrams crosses the stack as one buffer and is cut into
// datagrams by the kernel or the NIC. Every datagram still leaves as its own
// UDP datagram on the wire: GSO changes the cost of sending, never what is
// sent.
//
// The first time the kernel refuses a segmented send (no checksum offload on
// the device, an old kernel) segmentation is switched off for good and the
// run is sent datagram by datagram.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <sys/socket.h>

namespace dissem::net {

struct TransportCounters;

class BatchSender {
 public:
  // Runs of equal-sized datagrams per segmented send; the kernel's limit
  // (UDP_MAX_SEGMENTS) is 64 on older kernels.
  static constexpr std::size_t kMaxSegments = 64;
  // Bytes of one segmented send: the segments share one IPv4 datagram's
  // length field before they are cut.
  static constexpr std::size_t kMaxSegmentedBytes = 65000;
  // Datagrams per sendmmsg call.
  static constexpr std::size_t kMaxBatch = 256;

  explicit BatchSender(bool segmentation) : segmentation_(segmentation) {}

  // Sends `datagrams` on the connected, non-blocking socket `fd`, in order.
  // Returns how many the kernel took; the others were dropped and are
  // counted in `counters` by cause. Datagrams above `max_payload` are counted
  // as too large and skipped.
  std::size_t send(int fd, std::span<const std::span<const std::uint8_t>> datagrams, std::size_t max_payload,
                   TransportCounters& counters);

  bool segmentation() const { return segmentation_; }

 private:
  // One sendmmsg entry: datagrams [first, first + count) of the batch, cut
  // into `segment`-byte datagrams when count > 1.
  struct Run {
    std::size_t first = 0;
    std::size_t count = 0;
    std::size_t segment = 0;
  };

  void plan(std::span<const std::span<const std::uint8_t>> datagrams, std::size_t begin, std::size_t end);
  void build_headers(std::span<const std::span<const std::uint8_t>> datagrams);
  std::size_t send_runs(int fd, std::span<const std::span<const std::uint8_t>> datagrams,
                        TransportCounters& counters);

  bool segmentation_;
  std::vector<Run> runs_;
  std::vector<iovec> iov_;
  std::vector<mmsghdr> headers_;
  std::vector<unsigned char> control_;
};

}  // namespace dissem::net
