// UdpTransport on the loopback interface: real sockets, several transports in
// one process standing in for several daemons on one host. Only 127.0.0.1
// and 127.255.255.255 are used, so nothing leaves the machine.
//
// Other processes may use the same group, so every datagram carries a token
// unique to this test run and anything else is ignored.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>

#include "net/interface_info.h"
#include "net/udp_transport.h"

namespace dissem::net::udp_transport_test {
namespace {

using namespace std::chrono_literals;
namespace asio = boost::asio;

// A port no UDP socket on this host holds right now (the kernel's pick).
std::uint16_t unused_port() {
  asio::io_context io;
  asio::ip::udp::socket probe(io, asio::ip::udp::endpoint(asio::ip::make_address_v4("127.0.0.1"), 0));
  return probe.local_endpoint().port();
}

std::string run_token() {
  std::random_device rd;
  return "dissem-test-" + std::to_string(rd()) + "-" + std::to_string(rd()) + ":";
}

TransportConfig loopback_config(Mode mode, std::uint16_t port) {
  TransportConfig c;
  c.interface = "lo";
  c.mode = mode;
  c.group = "239.255.42.99";
  c.port = port;
  c.ttl = 1;
  c.loopback = true;
  return c;
}

// The same, hearing its own datagrams too (as a single transport in a test must).
TransportConfig hearing_own(TransportConfig c) {
  c.drop_own = false;
  return c;
}

// Runs the io_context in short slices until `done` or the time limit.
bool run_until(asio::io_context& io, const std::function<bool()>& done, std::chrono::milliseconds limit = 3s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    if (io.stopped()) io.restart();
    io.run_for(10ms);
  }
  return done();
}

struct Received {
  std::string text;
  Endpoint from;
};

// Collects the datagrams of this run (those starting with the token).
class Inbox {
 public:
  explicit Inbox(std::string token) : token_(std::move(token)) {}
  DatagramHandler handler() {
    return [this](std::span<const std::uint8_t> d, const Endpoint& from) {
      std::string text(d.begin(), d.end());
      if (text.rfind(token_, 0) == 0) items.push_back({text.substr(token_.size()), from});
    };
  }
  std::size_t count_text_prefix(const std::string& prefix) const {
    std::size_t n = 0;
    for (const auto& r : items) n += r.text.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
  }
  std::vector<Received> items;

 private:
  std::string token_;
};

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

// Sends `count` datagrams "<token><label>#i" from `t`.
void send_numbered(UdpTransport& t, const std::string& token, const std::string& label, int count) {
  for (int i = 0; i < count; ++i) {
    const auto payload = bytes_of(token + label + "#" + std::to_string(i));
    ASSERT_TRUE(t.send(payload)) << label << " #" << i;
  }
}

TEST(InterfaceInfo, LoopbackHasAddressAndBroadcast) {
  const auto lo = find_interface("lo");
  EXPECT_EQ(lo.address.to_string(), "127.0.0.1");
  EXPECT_TRUE(lo.loopback);
  EXPECT_GT(lo.index, 0u);
  ASSERT_TRUE(lo.broadcast.has_value());
  EXPECT_EQ(lo.broadcast->to_string(), "127.255.255.255");
}

TEST(InterfaceInfo, UnknownInterfaceErrorNamesItAndListsOthers) {
  try {
    find_interface("nosuchif0");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'nosuchif0'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("lo (127.0.0.1)"), std::string::npos) << msg;
  }
}

TEST(UdpTransport, TwoTransportsOnLoopbackMulticastExchangeBothWays) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  UdpTransport a(io, loopback_config(Mode::Multicast, port));
  UdpTransport b(io, loopback_config(Mode::Multicast, port));
  Inbox inbox_a(token), inbox_b(token);
  a.start(inbox_a.handler());
  b.start(inbox_b.handler());

  EXPECT_EQ(a.destination(), Endpoint(asio::ip::make_address_v4("239.255.42.99"), port));
  EXPECT_EQ(a.local_endpoint().address().to_string(), "127.0.0.1");
  EXPECT_NE(a.local_endpoint(), b.local_endpoint());

  constexpr int kCount = 5;
  send_numbered(a, token, "from-a", kCount);
  send_numbered(b, token, "from-b", kCount);
  ASSERT_TRUE(run_until(io, [&] {
    return inbox_a.count_text_prefix("from-b") == kCount && inbox_b.count_text_prefix("from-a") == kCount;
  })) << "a heard " << inbox_a.count_text_prefix("from-b") << " from b; b heard "
      << inbox_b.count_text_prefix("from-a") << " from a";

  for (const auto& r : inbox_b.items) {
    if (r.text.rfind("from-a", 0) != 0) continue;
    EXPECT_EQ(r.from, a.local_endpoint());
    EXPECT_FALSE(b.is_own(r.from));
  }
  EXPECT_EQ(a.counters().datagrams_sent, static_cast<std::uint64_t>(kCount));
  EXPECT_EQ(a.counters().send_errors + a.counters().send_would_block, 0u);
  EXPECT_GE(b.counters().datagrams_received, static_cast<std::uint64_t>(kCount));  // a's; b's own are filtered
}

TEST(UdpTransport, HearsItsOwnDatagramAndRecognisesItWhenAskedTo) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  UdpTransport a(io, hearing_own(loopback_config(Mode::Multicast, port)));
  UdpTransport b(io, loopback_config(Mode::Multicast, port));
  Inbox inbox_a(token), inbox_b(token);
  a.start(inbox_a.handler());
  b.start(inbox_b.handler());

  send_numbered(a, token, "own", 1);
  send_numbered(b, token, "other", 1);
  ASSERT_TRUE(run_until(io, [&] { return inbox_a.count_text_prefix("own") == 1 && inbox_a.count_text_prefix("other") == 1; }));

  for (const auto& r : inbox_a.items) {
    if (r.text.rfind("own", 0) == 0) {
      EXPECT_TRUE(a.is_own(r.from));
    } else if (r.text.rfind("other", 0) == 0) {
      EXPECT_FALSE(a.is_own(r.from));
    }
  }
}

// By default a transport never hands on what it sent itself: a socket
// filter drops it in the kernel. Others' datagrams still arrive.
TEST(UdpTransport, OwnDatagramsAreDroppedByDefault) {
  for (const Mode mode : {Mode::Multicast, Mode::Broadcast}) {
    asio::io_context io;
    const auto port = unused_port();
    const auto token = run_token();
    std::unique_ptr<UdpTransport> a, b;
    try {
      a = std::make_unique<UdpTransport>(io, loopback_config(mode, port));
      b = std::make_unique<UdpTransport>(io, loopback_config(mode, port));
    } catch (const std::runtime_error& e) {
      ASSERT_EQ(mode, Mode::Broadcast) << e.what();
      continue;  // this kernel refuses broadcast sockets on loopback (BroadcastOnLoopback says so)
    }
    Inbox inbox_a(token), inbox_b(token);
    a->start(inbox_a.handler());
    b->start(inbox_b.handler());
    constexpr int kCount = 20;
    send_numbered(*a, token, "own", kCount);
    send_numbered(*b, token, "other", kCount);
    // b's marker goes after everything a sent: once a has it, a's own would have arrived.
    send_numbered(*b, token, "marker", 1);
    ASSERT_TRUE(run_until(io, [&] { return inbox_a.count_text_prefix("marker") == 1; }));
    EXPECT_EQ(inbox_a.count_text_prefix("other"), static_cast<std::size_t>(kCount));
    EXPECT_EQ(inbox_a.count_text_prefix("own"), 0u);
    ASSERT_TRUE(run_until(io, [&] { return inbox_b.count_text_prefix("own") == kCount; }));
    for (const auto& r : inbox_a.items) EXPECT_FALSE(a->is_own(r.from)) << r.text;
  }
}

// A batch goes to the kernel in a few calls, runs of equal-sized datagrams
// as one segmented buffer where the kernel can (UDP GSO), and arrives as the
// same datagrams in the same order, whatever the kernel coalesced on the
// way in (UDP GRO).
void expect_batch_arrives_whole(bool offload) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  auto config = loopback_config(Mode::Multicast, port);
  config.offload = offload;
  config.socket_buffer_bytes = 8 << 20;
  UdpTransport a(io, config);
  UdpTransport b(io, config);
  Inbox inbox_b(token);
  a.start([](std::span<const std::uint8_t>, const Endpoint&) {});
  b.start(inbox_b.handler());
  // 300 datagrams: runs of equal sizes (1,400 bytes, as fragments are), a
  // shorter one ending each run of 50, and one too large for any datagram.
  std::vector<std::vector<std::uint8_t>> owned;
  for (int i = 0; i < 300; ++i) {
    auto d = bytes_of(token + "batch#" + std::to_string(i) + ":");
    d.resize(i % 50 == 49 ? 700 : 1400, static_cast<std::uint8_t>('a' + i % 26));
    owned.push_back(std::move(d));
  }
  owned.insert(owned.begin() + 120, std::vector<std::uint8_t>(UdpTransport::kMaxPayload + 1, 0x55));
  const std::vector<std::span<const std::uint8_t>> batch(owned.begin(), owned.end());
  EXPECT_EQ(a.send_batch(batch), 300u);
  const auto c = a.counters();
  EXPECT_EQ(c.datagrams_sent, 300u);
  EXPECT_EQ(c.too_large, 1u);
  EXPECT_EQ(c.send_errors + c.send_would_block, 0u);
  EXPECT_LE(c.send_calls, 4u) << "one sendmmsg per 256 datagrams";
  ASSERT_TRUE(run_until(io, [&] { return inbox_b.count_text_prefix("batch#") == 300; }))
      << inbox_b.count_text_prefix("batch#") << " of 300";
  std::size_t k = 0;
  for (std::size_t i = 0; i < owned.size(); ++i) {
    if (owned[i].size() > UdpTransport::kMaxPayload) continue;
    ASSERT_LT(k, inbox_b.items.size());
    EXPECT_EQ(token + inbox_b.items[k].text, std::string(owned[i].begin(), owned[i].end())) << "datagram " << k;
    ++k;
  }
  std::printf("offload %s: %llu send calls, %llu receive calls, %llu coalesced buffers, segmentation refused %llu\n",
              offload ? "on" : "off", static_cast<unsigned long long>(c.send_calls),
              static_cast<unsigned long long>(b.counters().receive_calls),
              static_cast<unsigned long long>(b.counters().coalesced_buffers),
              static_cast<unsigned long long>(c.segmentation_refused));
  if (!offload) {
    EXPECT_EQ(b.counters().coalesced_buffers, 0u);
  }
}

TEST(UdpTransport, BatchArrivesAsTheSameDatagramsWithOffload) { expect_batch_arrives_whole(true); }
TEST(UdpTransport, BatchArrivesAsTheSameDatagramsWithoutOffload) { expect_batch_arrives_whole(false); }

// On lo the device itself loops every frame back, so the kernel adds no
// second copy for IP_MULTICAST_LOOP (and clearing that flag would not stop
// delivery here): each datagram must arrive exactly once per receiver.
TEST(UdpTransport, EachDatagramArrivesOncePerReceiver) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  UdpTransport a(io, hearing_own(loopback_config(Mode::Multicast, port)));
  UdpTransport b(io, loopback_config(Mode::Multicast, port));
  Inbox inbox_a(token), inbox_b(token);
  a.start(inbox_a.handler());
  b.start(inbox_b.handler());

  constexpr int kCount = 4;
  send_numbered(a, token, "once", kCount);
  ASSERT_TRUE(run_until(io, [&] { return inbox_a.count_text_prefix("once") >= kCount && inbox_b.count_text_prefix("once") >= kCount; }));
  // A marker sent after them bounds how long late duplicates could take.
  send_numbered(a, token, "marker", 1);
  ASSERT_TRUE(run_until(io, [&] { return inbox_a.count_text_prefix("marker") == 1 && inbox_b.count_text_prefix("marker") == 1; }));
  EXPECT_EQ(inbox_a.count_text_prefix("once"), static_cast<std::size_t>(kCount));
  EXPECT_EQ(inbox_b.count_text_prefix("once"), static_cast<std::size_t>(kCount));
}

TEST(UdpTransport, BroadcastOnLoopback) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  std::unique_ptr<UdpTransport> a, b;
  try {
    a = std::make_unique<UdpTransport>(io, hearing_own(loopback_config(Mode::Broadcast, port)));
    b = std::make_unique<UdpTransport>(io, hearing_own(loopback_config(Mode::Broadcast, port)));
  } catch (const std::runtime_error& e) {
    GTEST_SKIP() << "this kernel refuses broadcast sockets on loopback: " << e.what();
  }
  Inbox inbox_a(token), inbox_b(token);
  a->start(inbox_a.handler());
  b->start(inbox_b.handler());
  EXPECT_EQ(a->destination(), Endpoint(asio::ip::make_address_v4("127.255.255.255"), port));

  const auto probe = bytes_of(token + "probe");
  if (!a->send(probe)) GTEST_SKIP() << "this kernel refuses to send to 127.255.255.255";

  constexpr int kCount = 3;
  send_numbered(*a, token, "from-a", kCount);
  send_numbered(*b, token, "from-b", kCount);
  ASSERT_TRUE(run_until(io, [&] {
    return inbox_a.count_text_prefix("from-b") >= kCount && inbox_b.count_text_prefix("from-a") >= kCount;
  })) << "a heard " << inbox_a.count_text_prefix("from-b") << " from b; b heard "
      << inbox_b.count_text_prefix("from-a") << " from a";
  send_numbered(*a, token, "marker", 1);
  ASSERT_TRUE(run_until(io, [&] { return inbox_a.count_text_prefix("marker") == 1 && inbox_b.count_text_prefix("marker") == 1; }));
  EXPECT_EQ(inbox_a.count_text_prefix("from-b"), static_cast<std::size_t>(kCount));
  EXPECT_EQ(inbox_b.count_text_prefix("from-a"), static_cast<std::size_t>(kCount));
  for (const auto& r : inbox_a.items) EXPECT_EQ(a->is_own(r.from), r.text.rfind("from-b", 0) != 0) << r.text;
}

TEST(UdpTransport, OversizedDatagramIsCountedNotSent) {
  asio::io_context io;
  UdpTransport a(io, loopback_config(Mode::Multicast, unused_port()));
  const std::vector<std::uint8_t> huge(UdpTransport::kMaxPayload + 1, 0x55);
  EXPECT_FALSE(a.send(huge));
  EXPECT_EQ(a.counters().too_large, 1u);
  EXPECT_EQ(a.counters().datagrams_sent, 0u);
}

TEST(UdpTransport, LargestDatagramArrivesWhole) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  auto config = hearing_own(loopback_config(Mode::Multicast, port));
  config.socket_buffer_bytes = 1 << 20;
  UdpTransport a(io, config);
  Inbox inbox(token);
  a.start(inbox.handler());
  auto payload = bytes_of(token + "big:");
  payload.resize(UdpTransport::kMaxPayload, 'x');
  ASSERT_TRUE(a.send(payload));
  ASSERT_TRUE(run_until(io, [&] { return inbox.count_text_prefix("big:") == 1; }));
  EXPECT_EQ(inbox.items.front().text.size() + token.size(), UdpTransport::kMaxPayload);
  EXPECT_GT(a.receive_buffer_bytes(), 0u);
}

TEST(UdpTransport, ConstructionErrorsNameInterfaceAddressAndPort) {
  asio::io_context io;
  auto expect_error = [&](const TransportConfig& c, const std::vector<std::string>& parts) {
    try {
      UdpTransport t(io, c);
      ADD_FAILURE() << "expected an error";
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    }
  };
  auto c = loopback_config(Mode::Multicast, 42424);
  c.interface = "nosuchif0";
  expect_error(c, {"nosuchif0"});

  c = loopback_config(Mode::Multicast, 42424);
  c.group = "10.1.2.3";
  expect_error(c, {"'lo'", "127.0.0.1", "10.1.2.3", "42424", "not a multicast address"});

  c.group = "not-an-address";
  expect_error(c, {"'lo'", "not-an-address"});

  c = loopback_config(Mode::Multicast, 0);
  expect_error(c, {"'lo'", "port 0"});
}

TEST(UdpTransport, AWakeUpReadsWhatTheSocketHoldsAsOneBoundedBurst) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  UdpTransport a(io, loopback_config(Mode::Multicast, port));
  UdpTransport b(io, loopback_config(Mode::Multicast, port));
  std::vector<std::size_t> bursts;
  std::size_t in_burst = 0;
  b.start(
      [&](std::span<const std::uint8_t> d, const Endpoint&) {
        if (std::string(d.begin(), d.end()).rfind(token, 0) == 0) ++in_burst;
      },
      [&] {
        if (in_burst > 0) bursts.push_back(in_burst);
        in_burst = 0;
      });
  constexpr int kCount = 100;
  send_numbered(a, token, "burst", kCount);  // all queued at b before its first wake-up
  std::this_thread::sleep_for(20ms);
  std::size_t total = 0;
  ASSERT_TRUE(run_until(io, [&] {
    total = 0;
    for (auto n : bursts) total += n;
    return total >= kCount;
  })) << total << " of " << kCount;
  EXPECT_EQ(total, static_cast<std::size_t>(kCount));
  EXPECT_EQ(in_burst, 0u) << "every datagram's burst ended";
  EXPECT_LE(*std::max_element(bursts.begin(), bursts.end()), static_cast<std::size_t>(UdpTransport::kMaxBurst));
  EXPECT_LT(bursts.size(), static_cast<std::size_t>(kCount) / 10) << "read in bursts, not one wake-up each";
}

TEST(UdpTransport, DestroyedWhileReceivePendingIsSafe) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  int calls = 0;
  {
    UdpTransport a(io, hearing_own(loopback_config(Mode::Multicast, port)));
    // Only this test's own datagrams count: concurrent tests may share the group and port.
    a.start([&](std::span<const std::uint8_t> d, const Endpoint&) {
      if (std::string(d.begin(), d.end()).rfind(token, 0) == 0) ++calls;
    });
    io.run_for(5ms);
    // A datagram of ours waits in the socket while the receive is pending.
    ASSERT_TRUE(a.send(bytes_of(token + "x")));
    std::this_thread::sleep_for(5ms);
  }
  // The aborted receive completes now, after the transport is gone.
  io.restart();
  io.run_for(20ms);
  EXPECT_EQ(calls, 0);
}

TEST(UdpTransport, HandlerMayDestroyTheTransport) {
  asio::io_context io;
  const auto port = unused_port();
  const auto token = run_token();
  auto a = std::make_unique<UdpTransport>(io, hearing_own(loopback_config(Mode::Multicast, port)));
  int calls = 0;
  a->start([&](std::span<const std::uint8_t> d, const Endpoint&) {
    if (std::string(d.begin(), d.end()).rfind(token, 0) != 0) return;  // another test's datagram
    ++calls;
    a.reset();
  });
  const auto payload = bytes_of(token + "x");
  ASSERT_TRUE(a->send(payload));
  ASSERT_TRUE(a->send(payload));
  ASSERT_TRUE(run_until(io, [&] { return a == nullptr; }));
  io.restart();
  io.run_for(20ms);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace dissem::net::udp_transport_test
