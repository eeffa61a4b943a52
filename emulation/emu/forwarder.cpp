#include "forwarder.h"

#include "event_loop.h"

namespace dissem::emu {
namespace {

// Frames read from one TAP per wake-up: bounded so one flooding node cannot
// starve the others or delay deliveries.
constexpr int kFramesPerWake = 64;
// Pcap files are flushed this often, so they can be read while the run goes on.
constexpr TimeNs kPcapFlushInterval = kNsPerSecond;

}  // namespace

Forwarder::Forwarder(LinkModel& model, EmulatedNetwork& network, TimeNs origin)
    : model_(model),
      network_(network),
      origin_(origin),
      realtime_offset_(realtime_now() - monotonic_now()),
      buffer_(65536) {}

TimeNs Forwarder::run_now() const { return monotonic_now() - origin_; }

void Forwarder::read_node(NodeId node) {
  TapDevice& tap = network_.tap(node);
  PcapWriter* pcap = network_.pcap(node);
  for (int i = 0; i < kFramesPerWake; ++i) {
    const auto size = tap.read_frame(buffer_);
    if (!size) return;
    const TimeNs now = run_now();
    auto frame = std::make_shared<const Frame>(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(*size));
    if (pcap) pcap->write(origin_ + now + realtime_offset_, *frame);
    model_.offer(now, node, std::move(frame));
  }
}

void Forwarder::deliver_due(TimeNs now) {
  model_.poll(now, deliveries_);
  for (const Delivery& d : deliveries_) {
    if (!network_.tap(d.receiver).write_frame(*d.frame)) ++model_.counters().node(d.receiver).tap_write_errors;
    if (PcapWriter* pcap = network_.pcap(d.receiver)) pcap->write(origin_ + run_now() + realtime_offset_, *d.frame);
  }
  deliveries_.clear();
}

Forwarder::Outcome Forwarder::run(std::optional<TimeNs> stop_at) {
  EventLoop loop;
  for (const auto& n : network_.nodes()) loop.watch(network_.tap(n.id).fd(), static_cast<std::uint32_t>(n.id));

  EventLoop::Wake wake;
  TimeNs next_flush = kPcapFlushInterval;
  // Ends on a termination signal or at stop_at; each pass handles one wake-up.
  for (;;) {
    TimeNs now = run_now();
    if (stop_at && now >= *stop_at) return {0, now};
    if (now >= next_flush) {
      network_.flush_pcaps();
      next_flush = now + kPcapFlushInterval;
    }

    std::optional<TimeNs> deadline = model_.next_deadline();
    if (stop_at && (!deadline || *stop_at < *deadline)) deadline = stop_at;
    if (network_.pcap(1) && (!deadline || next_flush < *deadline)) deadline = next_flush;
    loop.wait(deadline ? std::optional<TimeNs>(origin_ + *deadline) : std::nullopt, wake);
    if (wake.signal != 0) return {wake.signal, run_now()};

    for (std::uint32_t token : wake.readable) read_node(token);
    deliver_due(run_now());
  }
}

}  // namespace dissem::emu
