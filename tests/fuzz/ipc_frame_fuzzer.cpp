// libFuzzer target for the local API's input path: the byte stream a client
// sends, cut into reads of varying size, through the frame decoder, the
// ClientMessage parser and the request dispatcher, into a live engine (with
// an in-memory cache) behind the daemon's Backend interface. A bad frame
// must end with an error, never a crash, a leak or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/node.h"
#include "ipc/backend.h"
#include "ipc/dispatch.h"
#include "ipc/framing.h"
#include "ipc.pb.h"

namespace {

using namespace dissem;

// The daemon's Backend, minus the sockets: every call goes to the engine.
class EngineBackend final : public ipc::Backend {
 public:
  explicit EngineBackend(engine::Node& node) : node_(node) {}
  MessageId publish(ipc::ClientId, const engine::PublishRequest& request) override {
    return node_.publish(request, now_);
  }
  engine::SubscriptionId subscribe(ipc::ClientId, const std::string& group,
                                   const engine::SubscriptionOptions& options) override {
    return node_.subscribe(group, options, now_);
  }
  MessageId cancel(ipc::ClientId, const engine::CancelRequest& request) override { return node_.cancel(request, now_); }
  std::optional<engine::Delivery> get(ipc::ClientId, const MessageId& id) override { return node_.get(id, now_); }
  std::vector<engine::CachedMessage> list(ipc::ClientId, const engine::ListRequest& request) override {
    return node_.list(request);
  }
  void unsubscribe(ipc::ClientId, engine::SubscriptionId id) override { node_.unsubscribe(id, now_); }
  void acknowledge(ipc::ClientId, engine::SubscriptionId id, const MessageId& message) override {
    node_.acknowledge(id, message, now_);
  }
  bool delete_subscription(ipc::ClientId, const std::string& name) override {
    return node_.delete_subscription(name, now_);
  }
  void request_history(ipc::ClientId, const std::string& group, std::uint32_t count) override {
    node_.request_history(group, count, now_);
  }
  ipc::StatsSnapshot stats() override { return ipc::StatsSnapshot{node_.stats(), 0, 0}; }
  std::vector<ipc::PeerInfo> peers() override { return {}; }
  void watch_links(ipc::ClientId, bool, const std::optional<engine::LinkThresholds>& thresholds) override {
    if (thresholds) engine::check_link_thresholds(*thresholds);
  }
  void set_silent(ipc::ClientId, bool silent) override { node_.set_silent(silent, now_); }
  ipc::ReloadReport reload(ipc::ClientId) override { return {}; }
  void client_closed(ipc::ClientId) override {}
  void advance() { now_ += 10 * kMillis; }

 private:
  engine::Node& node_;
  Micros now_ = 1'700'000'000 * kSeconds;
};

}  // namespace

// Input: byte 0 sets the read size (1..256 bytes per read), the rest is the
// stream. Frames are limited to 64 KiB here so inputs stay small.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t chunk = std::size_t{data[0]} + 1;
  engine::EngineConfig cfg;
  cfg.node_id = 0xFFFF0002;
  engine::Node node(cfg, cache::Store::open(":memory:"), 1'700'000'000 * kSeconds);
  EngineBackend backend(node);
  ipc::FrameDecoder decoder(64 * 1024);
  std::span<const std::uint8_t> stream(data + 1, size - 1);
  while (!stream.empty() && decoder.error() == ipc::FrameDecoder::Error::None) {
    const std::size_t n = std::min(chunk, stream.size());
    decoder.feed(stream.first(n));
    stream = stream.subspan(n);
    while (auto body = decoder.next()) {
      ipc::ClientMessage request;
      if (!request.ParseFromString(*body) || request.request_case() == ipc::ClientMessage::REQUEST_NOT_SET) break;
      const ipc::Response reply = ipc::dispatch_request(backend, 1, request);
      (void)reply.ByteSizeLong();
      backend.advance();
      node.on_timer(1'700'000'000 * kSeconds);
      while (node.poll_delivery()) {
      }
    }
  }
  return 0;
}
