// IpcServer + client::Client over a real Unix socket, with a fake Backend.
//
// The server runs on its own thread (io_context::run_for in short slices) as
// it would in dissemd; the blocking Client runs on the test thread. Anything
// touching the server or the backend's records goes through on_io() or the
// backend's mutex. Sockets live in a fresh temporary directory per test.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "client/client.h"
#include "ipc.pb.h"
#include "ipc/framing.h"
#include "ipc/ipc_server.h"
#include "ipc/socket_file.h"

namespace dissem::ipc::ipc_server_test {
namespace {

using namespace std::chrono_literals;
namespace asio = boost::asio;

class FakeBackend : public Backend {
 public:
  struct Subscription {
    ClientId client;
    std::string group;
    engine::SubscriptionOptions options;
  };

  MessageId publish(ClientId, const engine::PublishRequest& request) override {
    std::lock_guard lock(mu);
    if (request.group.empty()) throw engine::PublishError("empty group");
    if (request.group == "boom") throw std::runtime_error("disk on fire");
    published.push_back(request);
    return MessageId{request.group, 7, ++seq};
  }
  MessageId cancel(ClientId, const engine::CancelRequest& request) override {
    std::lock_guard lock(mu);
    if (request.seqs.empty() && request.tag.empty()) throw engine::PublishError("cancel names nothing");
    cancels.push_back(request);
    return MessageId{request.group, 7, ++seq};
  }
  std::optional<engine::Delivery> get(ClientId, const MessageId& id) override {
    if (id.group != "news" || id.seq != 1) return std::nullopt;
    engine::Delivery d;
    d.meta.id = id;
    d.meta.tag = "cached";
    d.meta.expiry_ms = 1'900'000'000'555;
    d.payload = {9, 8, 7};
    return d;
  }
  std::vector<engine::CachedMessage> list(ClientId, const engine::ListRequest& request) override {
    std::vector<engine::CachedMessage> out;
    for (std::uint64_t q = std::max<std::uint64_t>(request.from_seq, 1); q <= 5 && out.size() < request.limit; ++q) {
      engine::CachedMessage m;
      m.meta.id = MessageId{request.group, 7, q};
      m.meta.priority = static_cast<std::uint32_t>(q);
      m.complete = q != 5;
      m.stored_bytes = 100 * q;
      out.push_back(m);
    }
    return out;
  }
  engine::SubscriptionId subscribe(ClientId client, const std::string& group,
                                   const engine::SubscriptionOptions& options) override {
    std::lock_guard lock(mu);
    subscriptions[++next_subscription] = Subscription{client, group, options};
    return next_subscription;
  }
  void acknowledge(ClientId, engine::SubscriptionId id, const MessageId& message) override {
    std::lock_guard lock(mu);
    if (!subscriptions.contains(id)) throw std::invalid_argument("unknown subscription");
    acks.emplace_back(id, message);
  }
  bool delete_subscription(ClientId, const std::string& name) override { return name == "kept"; }
  void unsubscribe(ClientId, engine::SubscriptionId id) override {
    std::lock_guard lock(mu);
    if (subscriptions.erase(id) == 0) throw std::invalid_argument("unknown subscription");
  }
  void request_history(ClientId, const std::string& group, std::uint32_t count) override {
    std::lock_guard lock(mu);
    history_requests.emplace_back(group, count);
  }
  StatsSnapshot stats() override {
    StatsSnapshot s;
    s.engine.sent[static_cast<std::size_t>(engine::TrafficKind::Data)] = {10, 12000};
    s.engine.sent[static_cast<std::size_t>(engine::TrafficKind::Beacon)] = {3, 90};
    s.engine.received[static_cast<std::size_t>(engine::TrafficKind::Repair)] = {4, 5000};
    s.engine.received[static_cast<std::size_t>(engine::TrafficKind::Request)] = {2, 64};
    s.engine.malformed[static_cast<std::size_t>(engine::DecodeError::BadRange)] = 5;
    s.engine.mfrs_sent = 6;
    s.engine.mfrs_received = 2;
    s.engine.repairs_queued = 9;
    s.engine.repairs_suppressed_ntm = 8;
    s.engine.deliveries = 11;
    s.engine.messages_published = 12;
    s.engine.messages_completed = 13;
    s.engine.sent[static_cast<std::size_t>(engine::TrafficKind::Forward)] = {21, 2100};
    s.engine.received[static_cast<std::size_t>(engine::TrafficKind::Summary)] = {22, 220};
    s.engine.forwards_queued = 23;
    s.engine.forwards_suppressed_ntm = 24;
    s.engine.summaries_sent = 25;
    s.engine.summaries_received = 26;
    s.engine.pushes_queued = 27;
    s.engine.pushes_sent = 28;
    s.engine.pushes_suppressed_ntm = 29;
    s.cache_bytes = 1 << 20;
    s.cache_messages = 17;
    LinkStats hf{"hf0", {}, 4096, 3};
    hf.engine.messages_carried = 31;
    hf.engine.carry_too_late = 32;
    s.links.push_back(hf);
    return s;
  }
  std::vector<PeerInfo> peers() override {
    PeerInfo on_hf{22, 0, 0.0, 250};
    on_hf.link = "hf0";
    return {PeerInfo{21, 1500 * kMillis, 0.25, 3 * kMillis, 0.125, std::nullopt, 2048.5, 4096.0}, on_hf};
  }
  void watch_links(ClientId client, bool watch, const std::optional<engine::LinkThresholds>& thresholds) override {
    if (thresholds) engine::check_link_thresholds(*thresholds);
    std::lock_guard lock(mu);
    link_watches.emplace_back(client, watch, thresholds);
  }
  void set_silent(ClientId client, bool silent) override {
    std::lock_guard lock(mu);
    silences.emplace_back(client, silent);
  }
  ReloadReport reload(ClientId) override {
    std::lock_guard lock(mu);
    if (++reloads > 1) throw std::runtime_error("log.level: 'loud' is not error, warn, info or debug");
    return ReloadReport{{"log.level"}, {"net.port"}, "0 network epoch(s)"};
  }
  void client_closed(ClientId client) override {
    std::lock_guard lock(mu);
    closed.push_back(client);
    for (auto it = subscriptions.begin(); it != subscriptions.end();) {
      it = it->second.client == client ? subscriptions.erase(it) : std::next(it);
    }
  }

  // The client owning subscription `id`.
  ClientId owner(engine::SubscriptionId id) {
    std::lock_guard lock(mu);
    return subscriptions.at(id).client;
  }
  std::vector<ClientId> closed_clients() {
    std::lock_guard lock(mu);
    return closed;
  }

  std::mutex mu;
  std::vector<engine::PublishRequest> published;
  std::vector<engine::CancelRequest> cancels;
  std::vector<std::pair<engine::SubscriptionId, MessageId>> acks;
  std::map<engine::SubscriptionId, Subscription> subscriptions;
  std::vector<std::pair<std::string, std::uint32_t>> history_requests;
  std::vector<ClientId> closed;
  std::vector<std::tuple<ClientId, bool, std::optional<engine::LinkThresholds>>> link_watches;
  std::vector<std::pair<ClientId, bool>> silences;
  int reloads = 0;
  std::uint64_t seq = 0;
  engine::SubscriptionId next_subscription = 100;
};

// A bare socket for sending what the Client library never would.
class RawClient {
 public:
  explicit RawClient(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
      throw std::runtime_error("connect failed");
    }
    timeval tv{5, 0};  // bound every read: a broken server must fail the test, not hang it
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~RawClient() { ::close(fd_); }

  void send_bytes(const std::string& bytes) {
    ASSERT_EQ(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }
  // As much of `bytes` as the server takes before it closes the connection.
  void send_until_refused(const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return;
      sent += static_cast<std::size_t>(n);
    }
  }
  // Everything the server sends until it closes (or the read times out).
  // `closed` tells which happened.
  std::string read_until_closed(bool& closed) {
    std::string all;
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n > 0) {
        all.append(buf, static_cast<std::size_t>(n));
        continue;
      }
      closed = n == 0 || errno == ECONNRESET;
      return all;
    }
  }

 private:
  int fd_ = -1;
};

std::string frame_with_body(const std::string& body) {
  std::uint8_t header[kFrameHeaderBytes];
  put_frame_header(static_cast<std::uint32_t>(body.size()), header);
  return std::string(reinterpret_cast<const char*>(header), kFrameHeaderBytes) + body;
}

std::vector<ServerMessage> decode_all(const std::string& stream) {
  FrameDecoder d;
  d.feed({reinterpret_cast<const std::uint8_t*>(stream.data()), stream.size()});
  std::vector<ServerMessage> out;
  while (auto body = d.next()) {
    ServerMessage m;
    EXPECT_TRUE(m.ParseFromString(*body));
    out.push_back(m);
  }
  return out;
}

engine::Delivery make_delivery(const std::string& group, std::uint64_t seq, std::size_t size) {
  engine::Delivery d;
  d.meta.id = MessageId{group, 9, seq};
  d.meta.total_length = static_cast<std::uint32_t>(size);
  d.meta.priority = 4;
  d.meta.expiry_ms = 2'000'000'000'000;
  d.meta.history_window = 2;
  d.meta.tag = "tag-" + std::to_string(seq);
  d.payload.resize(size);
  for (std::size_t i = 0; i < size; ++i) d.payload[i] = static_cast<std::uint8_t>(i + seq);
  return d;
}

class IpcServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/dissem-ipc-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/run/dissemd.sock";  // "run" does not exist yet: the server creates it
    config_.path = path_;
    config_.max_queued_bytes_per_client = 256 * 1024;
  }

  void start_server() {
    server_ = std::make_unique<IpcServer>(io_, config_, backend_);
    io_thread_ = std::thread([this] {
      // Bounded even if TearDown never comes: no test runs this long.
      const auto give_up = std::chrono::steady_clock::now() + 120s;
      while (!stop_ && std::chrono::steady_clock::now() < give_up) io_.run_for(20ms);
    });
  }

  void TearDown() override {
    if (io_thread_.joinable()) {
      try {
        on_io([this] {
          server_.reset();
          return 0;
        });
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
      }
      stop_ = true;
      io_thread_.join();
    }
    server_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Runs `f` on the server's thread and returns its result.
  template <typename F>
  auto on_io(F f) -> decltype(f()) {
    std::packaged_task<decltype(f())()> task(std::move(f));
    auto result = task.get_future();
    asio::post(io_, [&task] { task(); });
    if (result.wait_for(10s) != std::future_status::ready) throw std::runtime_error("io thread did not respond");
    return result.get();
  }

  // Polls `done` on the server's thread until true or the time limit.
  bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (on_io(done)) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  // Sends `bytes` from a raw connection and expects one Error frame with
  // `code`, then the connection closed; another client keeps working.
  void expect_closed_with_error(const std::string& bytes, Error::Code code) {
    client::Client good(path_);
    const ClientId good_id = backend_.owner(good.subscribe("keep"));
    RawClient raw(path_);
    raw.send_bytes(bytes);
    bool closed = false;
    const auto messages = decode_all(raw.read_until_closed(closed));
    EXPECT_TRUE(closed);
    ASSERT_EQ(messages.size(), 1u);
    ASSERT_TRUE(messages[0].has_response());
    EXPECT_EQ(messages[0].response().request_id(), 0u);
    ASSERT_TRUE(messages[0].response().has_error());
    EXPECT_EQ(messages[0].response().error().code(), code);
    EXPECT_FALSE(messages[0].response().error().message().empty());

    EXPECT_TRUE(eventually([&] { return server_->client_count() == 1; }));
    EXPECT_EQ(on_io([&] { return server_->counters().malformed_frames; }), 1u);
    const auto closed_ids = backend_.closed_clients();
    ASSERT_EQ(closed_ids.size(), 1u);
    EXPECT_NE(closed_ids[0], good_id);
    EXPECT_NO_THROW(good.stats());
    EXPECT_EQ(good.publish("keep", std::vector<std::uint8_t>{1}).group, "keep");
  }

  std::string dir_;
  std::string path_;
  IpcServerConfig config_;
  FakeBackend backend_;
  asio::io_context io_;
  // Keeps run_for() waiting rather than returning at once (and leaving the
  // context stopped) when the server has no operation pending, e.g. after stop().
  asio::executor_work_guard<asio::io_context::executor_type> work_{io_.get_executor()};
  std::unique_ptr<IpcServer> server_;
  std::thread io_thread_;
  std::atomic<bool> stop_{false};
};

TEST_F(IpcServerTest, PublishSubscribeStatsPeersRoundTrip) {
  start_server();
  client::Client c(path_);
  const std::vector<std::uint8_t> payload = {1, 2, 3, 4, 5};
  engine::PublishRequest request;
  request.group = "news";
  request.payload = payload;
  request.priority = 2;
  request.expiry_ms = 1'900'000'000'123;
  request.lifetime_ms = 250;
  request.history_window = 5;
  request.tag = "hello";
  request.replace = true;
  const MessageId id = c.publish(request);
  EXPECT_EQ(id, (MessageId{"news", 7, 1}));
  {
    std::lock_guard lock(backend_.mu);
    ASSERT_EQ(backend_.published.size(), 1u);
    const auto& p = backend_.published[0];
    EXPECT_EQ(p.group, "news");
    EXPECT_EQ(p.payload, payload);
    EXPECT_EQ(p.priority, 2u);
    EXPECT_EQ(p.expiry_ms, 1'900'000'000'123u);
    EXPECT_EQ(p.lifetime_ms, 250u);
    EXPECT_EQ(p.history_window, 5u);
    EXPECT_EQ(p.tag, "hello");
    EXPECT_TRUE(p.replace);
  }
  engine::CancelRequest cancel;
  cancel.group = "news";
  cancel.seqs = {1, 4};
  cancel.tag = "hello";
  cancel.expiry_ms = 1'900'000'000'999;
  EXPECT_EQ(c.cancel(cancel), (MessageId{"news", 7, 2}));
  {
    std::lock_guard lock(backend_.mu);
    ASSERT_EQ(backend_.cancels.size(), 1u);
    EXPECT_EQ(backend_.cancels[0].seqs, (std::vector<std::uint64_t>{1, 4}));
    EXPECT_EQ(backend_.cancels[0].tag, "hello");
    EXPECT_EQ(backend_.cancels[0].expiry_ms, 1'900'000'000'999u);
  }
  EXPECT_THROW(c.cancel(engine::CancelRequest{"news", {}, "", 0}), client::RequestError);

  const auto cached = c.get(MessageId{"news", 7, 1});
  ASSERT_TRUE(cached);
  EXPECT_EQ(cached->payload, (std::vector<std::uint8_t>{9, 8, 7}));
  EXPECT_EQ(cached->meta.tag, "cached");
  EXPECT_EQ(cached->meta.expiry_ms, 1'900'000'000'555u);
  EXPECT_FALSE(c.get(MessageId{"news", 7, 2})) << "not held: nullopt, the connection stays usable";
  bool truncated = false;
  const auto listed = c.list(engine::ListRequest{"news", 0, 2, 0, 3}, &truncated);
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_TRUE(truncated) << "4 matched, 3 asked for";
  EXPECT_EQ(listed[0].meta.id, (MessageId{"news", 7, 2}));
  EXPECT_EQ(listed[0].meta.priority, 2u);
  EXPECT_EQ(listed[0].stored_bytes, 200u);
  EXPECT_TRUE(listed[0].complete);
  c.list(engine::ListRequest{"news", 0, 2, 0, 10}, &truncated);
  EXPECT_FALSE(truncated);

  engine::SubscriptionOptions filtered;
  filtered.reliable = false;
  filtered.ordered = true;
  filtered.history = 3;
  filtered.min_priority = 4;
  filtered.tags = {"a", "b"};
  filtered.silent = true;
  const auto sub = c.subscribe("news", filtered);
  {
    std::lock_guard lock(backend_.mu);
    const auto& s = backend_.subscriptions.at(sub);
    EXPECT_EQ(s.group, "news");
    EXPECT_FALSE(s.options.reliable);
    EXPECT_TRUE(s.options.ordered);
    EXPECT_EQ(s.options.history, 3u);
    EXPECT_EQ(s.options.min_priority, 4u);
    EXPECT_EQ(s.options.tags, (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(s.options.silent);
  }
  c.request_history("news", 4);
  c.unsubscribe(sub);
  {
    std::lock_guard lock(backend_.mu);
    EXPECT_TRUE(backend_.subscriptions.empty());
    ASSERT_EQ(backend_.history_requests.size(), 1u);
    EXPECT_EQ(backend_.history_requests[0], (std::pair<std::string, std::uint32_t>{"news", 4}));
  }

  const StatsSnapshot s = c.stats();
  const auto k = [](engine::TrafficKind kind) { return static_cast<std::size_t>(kind); };
  EXPECT_EQ(s.engine.sent[k(engine::TrafficKind::Data)].datagrams, 10u);
  EXPECT_EQ(s.engine.sent[k(engine::TrafficKind::Data)].bytes, 12000u);
  EXPECT_EQ(s.engine.sent[k(engine::TrafficKind::Beacon)].bytes, 90u);
  EXPECT_EQ(s.engine.received[k(engine::TrafficKind::Repair)].bytes, 5000u);
  EXPECT_EQ(s.engine.received[k(engine::TrafficKind::Request)].datagrams, 2u);
  EXPECT_EQ(s.engine.malformed[static_cast<std::size_t>(engine::DecodeError::BadRange)], 5u);
  EXPECT_EQ(s.engine.malformed_total(), 5u);
  EXPECT_EQ(s.engine.mfrs_sent, 6u);
  EXPECT_EQ(s.engine.mfrs_received, 2u);
  EXPECT_EQ(s.engine.repairs_queued, 9u);
  EXPECT_EQ(s.engine.repairs_suppressed_ntm, 8u);
  EXPECT_EQ(s.engine.deliveries, 11u);
  EXPECT_EQ(s.engine.messages_published, 12u);
  EXPECT_EQ(s.engine.messages_completed, 13u);
  EXPECT_EQ(s.engine.sent[k(engine::TrafficKind::Forward)].bytes, 2100u);
  EXPECT_EQ(s.engine.received[k(engine::TrafficKind::Summary)].datagrams, 22u);
  EXPECT_EQ(s.engine.forwards_queued, 23u);
  EXPECT_EQ(s.engine.forwards_suppressed_ntm, 24u);
  EXPECT_EQ(s.engine.summaries_sent, 25u);
  EXPECT_EQ(s.engine.summaries_received, 26u);
  EXPECT_EQ(s.engine.pushes_queued, 27u);
  EXPECT_EQ(s.engine.pushes_sent, 28u);
  EXPECT_EQ(s.engine.pushes_suppressed_ntm, 29u);
  EXPECT_EQ(s.cache_bytes, 1u << 20);
  EXPECT_EQ(s.cache_messages, 17u);
  // A daemon's links of their own, each with its node's figures.
  ASSERT_EQ(s.links.size(), 1u);
  EXPECT_EQ(s.links[0].name, "hf0");
  EXPECT_EQ(s.links[0].engine.messages_carried, 31u);
  EXPECT_EQ(s.links[0].engine.carry_too_late, 32u);
  EXPECT_EQ(s.links[0].cache_bytes, 4096u);
  EXPECT_EQ(s.links[0].cache_messages, 3u);

  const auto peers = c.peers();
  ASSERT_EQ(peers.size(), 2u);
  EXPECT_EQ(peers[0].node, 21u);
  EXPECT_EQ(peers[0].last_heard_ago, 1500 * kMillis);
  EXPECT_DOUBLE_EQ(peers[0].estimated_loss, 0.25);
  EXPECT_EQ(peers[0].srtt, 3 * kMillis);
  EXPECT_EQ(peers[1].node, 22u);
  EXPECT_EQ(peers[1].srtt, 250);
  EXPECT_EQ(peers[0].link, "");
  EXPECT_EQ(peers[1].link, "hf0");
  // Link quality: loss each way (absent until measured) and rates.
  ASSERT_TRUE(peers[0].loss_in.has_value());
  EXPECT_DOUBLE_EQ(*peers[0].loss_in, 0.125);
  EXPECT_FALSE(peers[0].loss_out.has_value());
  EXPECT_DOUBLE_EQ(peers[0].received_bytes_per_s, 2048.5);
  EXPECT_DOUBLE_EQ(peers[0].sent_bytes_per_s, 4096.0);
  EXPECT_FALSE(peers[1].loss_in.has_value());
}

TEST_F(IpcServerTest, SilenceIsSetAndEndedForTheWholeNode) {
  start_server();
  client::Client c(path_);
  c.set_silent(true);
  c.set_silent(false);
  std::lock_guard lock(backend_.mu);
  ASSERT_EQ(backend_.silences.size(), 2u);
  EXPECT_TRUE(backend_.silences[0].second);
  EXPECT_FALSE(backend_.silences[1].second);
}

TEST_F(IpcServerTest, AReloadAnswersWhatItAppliedOrTheKeyItRefused) {
  start_server();
  client::Client c(path_);
  const auto report = c.reload();
  EXPECT_EQ(report.applied, std::vector<std::string>{"log.level"});
  EXPECT_EQ(report.needs_restart, std::vector<std::string>{"net.port"});
  EXPECT_EQ(report.keys, "0 network epoch(s)");
  try {
    c.reload();
    FAIL() << "the second reload is refused";
  } catch (const client::RequestError& e) {
    EXPECT_EQ(e.code(), client::ErrorCode::Failed);
    EXPECT_NE(std::string(e.what()).find("log.level"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(c.stats()) << "the connection stays open";
}

TEST_F(IpcServerTest, LinkEventsReachOnlyTheClientsThatWatch) {
  start_server();
  client::Client watcher(path_);
  client::Client other(path_);
  const ClientId w = backend_.owner(watcher.subscribe("g"));
  const ClientId o = backend_.owner(other.subscribe("g"));
  engine::LinkThresholds mine;
  mine.loss = 0.3;
  mine.rate_bytes_per_s = 5000;
  watcher.watch_links(mine);
  {
    std::lock_guard lock(backend_.mu);
    ASSERT_EQ(backend_.link_watches.size(), 1u);
    const auto& [client, watch, thresholds] = backend_.link_watches[0];
    EXPECT_EQ(client, w);
    EXPECT_TRUE(watch);
    ASSERT_TRUE(thresholds.has_value());
    EXPECT_DOUBLE_EQ(thresholds->loss, 0.3);
    EXPECT_DOUBLE_EQ(thresholds->rate_bytes_per_s, 5000);
  }
  // A threshold out of range is refused, naming it; the connection stays.
  engine::LinkThresholds bad;
  bad.rate_hysteresis = 2;
  try {
    other.watch_links(bad);
    ADD_FAILURE() << "an out-of-range threshold was accepted";
  } catch (const client::RequestError& e) {
    EXPECT_EQ(e.code(), client::ErrorCode::Rejected);
    EXPECT_NE(std::string(e.what()).find("rate_hysteresis"), std::string::npos) << e.what();
  }

  LinkEventInfo e{engine::LinkEvent::Kind::LossAbove, PeerInfo{21, 0, 0.5, 0, 0.5, 0.25, 100, 200}};
  EXPECT_TRUE(on_io([&] { return server_->link_event(w, e); }));
  const auto got = watcher.next_link_event(2s);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->kind, engine::LinkEvent::Kind::LossAbove);
  EXPECT_EQ(got->peer.node, 21u);
  ASSERT_TRUE(got->peer.loss_out.has_value());
  EXPECT_DOUBLE_EQ(*got->peer.loss_out, 0.25);
  EXPECT_DOUBLE_EQ(got->peer.received_bytes_per_s, 100);
  EXPECT_FALSE(other.next_link_event(100ms).has_value());
  EXPECT_FALSE(watcher.next_event(100ms).has_value()) << "link events are not plain events";

  other.unwatch_links();
  std::lock_guard lock(backend_.mu);
  ASSERT_EQ(backend_.link_watches.size(), 2u);
  EXPECT_EQ(std::get<0>(backend_.link_watches[1]), o);
  EXPECT_FALSE(std::get<1>(backend_.link_watches[1]));
}

TEST_F(IpcServerTest, LargePublishCrossesManyReads) {
  start_server();
  client::Client c(path_);
  std::vector<std::uint8_t> payload(5 * 1024 * 1024);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 31);
  EXPECT_EQ(c.publish("big", payload).seq, 1u);
  std::lock_guard lock(backend_.mu);
  ASSERT_EQ(backend_.published.size(), 1u);
  EXPECT_EQ(backend_.published[0].payload, payload);
}

TEST_F(IpcServerTest, DeliveriesGoToTheOwningClientAndQueueDuringRequests) {
  start_server();
  client::Client a(path_);
  client::Client b(path_);
  const auto sub_a = a.subscribe("news");
  const auto sub_b = b.subscribe("news");
  const ClientId ca = backend_.owner(sub_a);
  const ClientId cb = backend_.owner(sub_b);
  ASSERT_NE(ca, cb);

  const engine::Delivery d = make_delivery("news", 5, 3000);
  EXPECT_TRUE(on_io([&] { return server_->deliver(ca, sub_a, d); }));
  // The delivery is queued ahead of this response; the client must keep it.
  a.stats();
  const auto got = a.next_delivery(2s);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->subscription, sub_a);
  EXPECT_EQ(got->meta.id, d.meta.id);
  EXPECT_EQ(got->meta.priority, 4u);
  EXPECT_EQ(got->meta.expiry_ms, 2'000'000'000'000u);
  EXPECT_EQ(got->meta.history_window, 2u);
  EXPECT_EQ(got->meta.tag, "tag-5");
  EXPECT_EQ(got->meta.total_length, 3000u);
  EXPECT_EQ(got->payload, d.payload);
  EXPECT_FALSE(b.next_delivery(100ms).has_value());

  EXPECT_TRUE(on_io([&] { return server_->deliver(cb, sub_b, make_delivery("news", 6, 10)); }));
  const auto got_b = b.next_delivery(2s);
  ASSERT_TRUE(got_b.has_value());
  EXPECT_EQ(got_b->meta.id.seq, 6u);
  EXPECT_FALSE(a.next_delivery(100ms).has_value());
  // Unknown clients are reported, not an error.
  EXPECT_FALSE(on_io([&] { return server_->deliver(9999, 1, d); }));
}

TEST_F(IpcServerTest, EventsReachClients) {
  start_server();
  client::Client a(path_);
  client::Client b(path_);
  const ClientId ca = backend_.owner(a.subscribe("g"));
  b.subscribe("g");

  engine::Event appeared{engine::Event::Kind::PeerAppeared, 33, {}};
  on_io([&] {
    server_->broadcast_event(appeared);
    return 0;
  });
  for (client::Client* c : {&a, &b}) {
    const auto e = c->next_event(2s);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->kind, engine::Event::Kind::PeerAppeared);
    EXPECT_EQ(e->peer, 33u);
  }

  engine::Event skipped{engine::Event::Kind::MessageSkipped, 0, MessageId{"g", 4, 77}};
  EXPECT_TRUE(on_io([&] { return server_->event(ca, skipped); }));
  const auto e = a.next_event(2s);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->kind, engine::Event::Kind::MessageSkipped);
  EXPECT_EQ(e->message, (MessageId{"g", 4, 77}));
  EXPECT_FALSE(b.next_event(100ms).has_value());
}

TEST_F(IpcServerTest, UnparseableFrameClosesOnlyThatClient) {
  start_server();
  expect_closed_with_error(frame_with_body("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"), Error::MALFORMED_FRAME);
}

TEST_F(IpcServerTest, OversizeDeclaredLengthClosesOnlyThatClient) {
  config_.max_frame_bytes = 1024;
  start_server();
  std::uint8_t header[kFrameHeaderBytes];
  put_frame_header(1u << 30, header);
  expect_closed_with_error(std::string(reinterpret_cast<const char*>(header), kFrameHeaderBytes),
                           Error::FRAME_TOO_LARGE);
}

TEST_F(IpcServerTest, UnfinishedFramesOfAllClientsShareOneCap) {
  // Each client may send frames up to the maximum, but all of them together
  // may not hold more than the daemon-wide cap in unfinished frames: the
  // client whose data crosses it is closed, the others carry on.
  config_.max_unfinished_bytes = 1024 * 1024;
  start_server();
  ClientMessage publish;
  publish.set_request_id(7);
  publish.mutable_publish()->set_group("g");
  publish.mutable_publish()->set_payload(std::string(400 * 1024, 'a'));
  const std::string frame = encode_frame(publish);
  RawClient polite(path_);
  polite.send_bytes(frame.substr(0, 200 * 1024));
  ASSERT_TRUE(eventually([&] { return server_->unfinished_bytes() >= 200 * 1024; }));

  RawClient hog(path_);
  std::uint8_t header[kFrameHeaderBytes];
  put_frame_header(900 * 1024, header);
  hog.send_until_refused(std::string(reinterpret_cast<const char*>(header), kFrameHeaderBytes) +
                         std::string(850 * 1024, 'b'));
  bool closed = false;
  const auto messages = decode_all(hog.read_until_closed(closed));
  EXPECT_TRUE(closed);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].response().error().code(), Error::FRAME_TOO_LARGE);
  EXPECT_EQ(on_io([&] { return server_->counters().clients_dropped_unfinished; }), 1u);
  EXPECT_TRUE(eventually([&] { return server_->unfinished_bytes() < 1024 * 1024; }));

  // The first client finishes its frame and is answered.
  polite.send_bytes(frame.substr(200 * 1024));
  EXPECT_TRUE(eventually([&] { return server_->counters().frames_in >= 1; }));
  EXPECT_TRUE(eventually([&] { return server_->unfinished_bytes() == 0; }));
  EXPECT_TRUE(eventually([&] { return server_->client_count() == 1; }));
}

TEST_F(IpcServerTest, UnknownRequestKindClosesOnlyThatClient) {
  start_server();
  ClientMessage nothing;
  nothing.set_request_id(5);
  expect_closed_with_error(encode_frame(nothing), Error::UNKNOWN_REQUEST);
}

TEST_F(IpcServerTest, ClientThatNeverReadsIsDroppedWhileOthersKeepReceiving) {
  start_server();
  client::Client slow(path_);
  client::Client fast(path_);
  const auto sub_slow = slow.subscribe("bulk");
  const auto sub_fast = fast.subscribe("bulk");
  const ClientId c_slow = backend_.owner(sub_slow);
  const ClientId c_fast = backend_.owner(sub_fast);

  // 200 x 32 KiB = 6.4 MiB: far beyond the slow client's socket buffer plus
  // its 256 KiB queue limit.
  constexpr int kCount = 200;
  int slow_refused = 0;
  for (int i = 0; i < kCount; ++i) {
    const engine::Delivery d = make_delivery("bulk", static_cast<std::uint64_t>(i), 32 * 1024);
    const auto [to_slow, to_fast] =
        on_io([&] { return std::pair{server_->deliver(c_slow, sub_slow, d), server_->deliver(c_fast, sub_fast, d)}; });
    if (!to_slow) ++slow_refused;
    ASSERT_TRUE(to_fast);
    const auto got = fast.next_delivery(5s);
    ASSERT_TRUE(got.has_value());
    ASSERT_EQ(got->meta.id.seq, static_cast<std::uint64_t>(i));
    ASSERT_EQ(got->payload, d.payload);
  }
  EXPECT_GT(slow_refused, 0);
  EXPECT_TRUE(eventually([&] { return server_->client_count() == 1; }));
  EXPECT_EQ(on_io([&] { return server_->counters().clients_dropped_overflow; }), 1u);
  EXPECT_EQ(backend_.closed_clients(), std::vector<ClientId>{c_slow});
  EXPECT_NO_THROW(fast.stats());
  // The slow client finds out when it finally reads: what was written before
  // the drop, then the end of the connection.
  EXPECT_THROW(
      {
        while (slow.next_delivery(2s)) {
        }
      },
      client::ConnectionError);
}

TEST_F(IpcServerTest, BackendExceptionBecomesErrorAndConnectionStaysUsable) {
  start_server();
  client::Client c(path_);
  try {
    c.publish("", std::vector<std::uint8_t>{1});
    ADD_FAILURE() << "publish to an empty group succeeded";
  } catch (const client::RequestError& e) {
    EXPECT_EQ(e.code(), client::ErrorCode::Rejected);
    EXPECT_NE(std::string(e.what()).find("empty group"), std::string::npos);
  }
  try {
    c.publish("boom", std::vector<std::uint8_t>{1});
    ADD_FAILURE() << "failing publish succeeded";
  } catch (const client::RequestError& e) {
    EXPECT_EQ(e.code(), client::ErrorCode::Failed);
  }
  EXPECT_THROW(c.unsubscribe(12345), client::RequestError);
  EXPECT_TRUE(c.connected());
  EXPECT_EQ(c.stats().cache_messages, 17u);
  EXPECT_EQ(c.publish("ok", std::vector<std::uint8_t>{1}).seq, 1u);
  EXPECT_TRUE(eventually([&] { return server_->client_count() == 1; }));
}

TEST_F(IpcServerTest, StaleSocketFileIsReplaced) {
  // A socket file nobody listens on, as a crashed daemon leaves behind.
  std::filesystem::create_directories(dir_ + "/run");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path_.c_str(), sizeof addr.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  ::close(fd);
  ASSERT_TRUE(std::filesystem::is_socket(path_));

  start_server();
  client::Client c(path_);
  EXPECT_EQ(c.stats().cache_messages, 17u);
}

TEST_F(IpcServerTest, RefusesToStartWhileAnotherServerAnswers) {
  start_server();
  FakeBackend other;
  EXPECT_THROW(on_io([&] {
                 IpcServer second(io_, config_, other);
                 return 0;
               }),
               std::runtime_error);
  client::Client c(path_);  // the first server is untouched
  EXPECT_NO_THROW(c.stats());
}

TEST_F(IpcServerTest, RefusesToReplaceANonSocketFile) {
  std::filesystem::create_directories(dir_ + "/run");
  std::ofstream(path_) << "precious";
  EXPECT_THROW(IpcServer(io_, config_, backend_), std::runtime_error);
  std::ifstream in(path_);
  std::string content;
  in >> content;
  EXPECT_EQ(content, "precious");
}

TEST_F(IpcServerTest, SocketModeAndDirectoryAreAsConfigured) {
  config_.mode = 0640;
  start_server();
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  ASSERT_EQ(::stat((dir_ + "/run").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);
}

TEST_F(IpcServerTest, DefaultModeIs0660) {
  start_server();
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0660u);
}

TEST_F(IpcServerTest, StopClosesClientsAndRemovesTheSocket) {
  start_server();
  client::Client c(path_);
  const ClientId id = backend_.owner(c.subscribe("g"));
  on_io([&] {
    server_->stop();
    return 0;
  });
  EXPECT_FALSE(std::filesystem::exists(path_));
  EXPECT_EQ(backend_.closed_clients(), std::vector<ClientId>{id});
  EXPECT_THROW(c.stats(), client::ConnectionError);
  EXPECT_FALSE(c.connected());
}

TEST_F(IpcServerTest, ClientDisconnectTellsTheBackend) {
  start_server();
  ClientId id = 0;
  {
    client::Client c(path_);
    id = backend_.owner(c.subscribe("g"));
  }
  EXPECT_TRUE(eventually([&] { return server_->client_count() == 0; }));
  EXPECT_EQ(backend_.closed_clients(), std::vector<ClientId>{id});
  std::lock_guard lock(backend_.mu);
  EXPECT_TRUE(backend_.subscriptions.empty());
}

TEST(IpcDefaultPath, FollowsXdgRuntimeDirForUsers) {
  if (::geteuid() == 0) {
    EXPECT_EQ(default_socket_path(), "/run/dissem/dissemd.sock");
    return;
  }
  const char* old = std::getenv("XDG_RUNTIME_DIR");
  const std::string saved = old ? old : "";
  ::setenv("XDG_RUNTIME_DIR", "/run/user/1234", 1);
  EXPECT_EQ(default_socket_path(), "/run/user/1234/dissem/dissemd.sock");
  ::unsetenv("XDG_RUNTIME_DIR");
  // Without it, the same place the daemon defaults to (a user cannot create /run/dissem).
  std::string expected = "/tmp/dissem-";
  expected += std::to_string(::geteuid());
  expected += "/dissemd.sock";
  EXPECT_EQ(default_socket_path(), expected);
  if (old) ::setenv("XDG_RUNTIME_DIR", saved.c_str(), 1);
}

TEST(IpcDefaultPath, AClientFallsBackToTheSystemDaemonsSocketOnlyWhenItsOwnIsAbsent) {
  char tmpl[] = "/tmp/dissem-client-path-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::filesystem::path dir(tmpl);
  const std::string own = (dir / "own.sock").string(), system = (dir / "system.sock").string();
  const auto bind_socket = [](const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    EXPECT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0) << path;
    return fd;
  };
  EXPECT_EQ(client_socket_path(own, system), own) << "neither there: the error names the user's own";
  std::ofstream(system) << "not a socket";
  EXPECT_EQ(client_socket_path(own, system), own) << "a plain file is no daemon";
  std::filesystem::remove(system);
  const int system_fd = bind_socket(system);
  EXPECT_EQ(client_socket_path(own, system), system) << "only the system daemon: use it";
  const int own_fd = bind_socket(own);
  EXPECT_EQ(client_socket_path(own, system), own) << "the user's own daemon comes first";
  ::close(system_fd);
  ::close(own_fd);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dissem::ipc::ipc_server_test
