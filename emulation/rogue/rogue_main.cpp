// dissem-rogue: a hostile node for experiments and tests. It listens to a
// dissem group on one interface, learns a real stream from the data it hears,
// and for a bounded time sends, at a bounded rate, the attacks asked for:
// malformed datagrams, floods of phantom beacons, floods of requests for the
// real stream, corrupted copies of real fragments, and replays of what it
// heard. Prints a JSON summary of what it sent. Never runs unbounded: it
// stops after --duration-s or --max-datagrams, whichever comes first.
//
//   dissem-rogue --interface emu0 --attack beacon-flood --attack request-flood --rate 200 --duration-s 20
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "core/version.h"
#include "hostile_datagrams.h"
#include "rogue_summary.h"

namespace {

using namespace dissem::rogue;
using Clock = std::chrono::steady_clock;

const std::vector<std::string> kAttackList = {"malformed", "beacon-flood", "request-flood", "corrupt", "replay"};
const std::set<std::string> kAttacks = {kAttackList.begin(), kAttackList.end()};

struct Options {
  std::string interface = "lo";
  std::string address = "239.255.42.99";  // dissemd's default group (net.group)
  int port = 42424;
  std::vector<std::string> attacks;
  double rate = 100;          // datagrams per second, all attacks together
  double duration_s = 10;
  std::uint64_t max_datagrams = 1'000'000;
  std::uint64_t seed = 1;
  std::string phantom_group;  // beacon-flood's group when no stream was learnt
  dissem::NodeId requester = 0;  // request-flood's requester id; 0 = a new invented one each time
};

// One UDP socket that both hears the group on the interface and sends to it.
class GroupSocket {
 public:
  explicit GroupSocket(const Options& o) {
    const unsigned index = if_nametoindex(o.interface.c_str());
    if (index == 0) throw std::runtime_error("no interface '" + o.interface + "'");
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    const int on = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
    ::setsockopt(fd_, SOL_SOCKET, SO_BROADCAST, &on, sizeof on);
    sockaddr_in any{};
    any.sin_family = AF_INET;
    any.sin_port = htons(static_cast<std::uint16_t>(o.port));
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&any), sizeof any) != 0)
      throw std::runtime_error("cannot bind port " + std::to_string(o.port));
    to_.sin_family = AF_INET;
    to_.sin_port = any.sin_port;
    if (::inet_pton(AF_INET, o.address.c_str(), &to_.sin_addr) != 1)
      throw std::runtime_error("'" + o.address + "' is not an IPv4 address");
    if (IN_MULTICAST(ntohl(to_.sin_addr.s_addr))) {
      ip_mreqn m{};
      m.imr_multiaddr = to_.sin_addr;
      m.imr_ifindex = static_cast<int>(index);
      if (::setsockopt(fd_, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof m) != 0)
        throw std::runtime_error("cannot join " + o.address + " on " + o.interface);
      ip_mreqn out{};
      out.imr_ifindex = static_cast<int>(index);
      ::setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_IF, &out, sizeof out);
      const unsigned char loop = 1;  // daemons on this host (loopback tests) hear it too
      ::setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof loop);
    } else {
      ::setsockopt(fd_, SOL_SOCKET, SO_BINDTODEVICE, o.interface.c_str(),
                   static_cast<socklen_t>(o.interface.size()));
    }
  }
  ~GroupSocket() { ::close(fd_); }
  GroupSocket(const GroupSocket&) = delete;
  GroupSocket& operator=(const GroupSocket&) = delete;

  bool send(const Datagram& d) {
    return ::sendto(fd_, d.data(), d.size(), 0, reinterpret_cast<const sockaddr*>(&to_), sizeof to_) ==
           static_cast<ssize_t>(d.size());
  }
  // One datagram heard, if any is waiting.
  std::optional<Datagram> receive() {
    Datagram d(65536);
    const ssize_t n = ::recv(fd_, d.data(), d.size(), 0);
    if (n <= 0) return std::nullopt;
    d.resize(static_cast<std::size_t>(n));
    return d;
  }

 private:
  int fd_ = -1;
  sockaddr_in to_{};
};

Options parse(int argc, char** argv) {
  Options o;
  CLI::App app{"dissem-rogue: a hostile node (malformed, phantom beacons, request floods, corrupted copies, replays)"};
  app.set_version_flag("--version", dissem::version_line("dissem-rogue"), "print the version and exit");
  app.add_option("--interface", o.interface, "interface to hear and send on")->capture_default_str();
  app.add_option("--address", o.address, "dissem's group (multicast) or broadcast address")->capture_default_str();
  app.add_option("--port", o.port, "dissem's UDP port")->check(CLI::Range(1, 65535))->capture_default_str();
  app.add_option("--attack", o.attacks, "malformed, beacon-flood, request-flood, corrupt, replay, or every (repeatable)")
      ->required()
      ->check([](const std::string& a) {
        return a == "every" || kAttacks.contains(a) ? std::string() : "unknown attack '" + a + "'";
      });
  app.add_option("--requester", o.requester, "request-flood's requester node id (0: a new invented id per request)")
      ->capture_default_str();
  app.add_option("--rate", o.rate, "datagrams per second, all attacks together")
      ->check(CLI::Range(0.1, 100000.0))
      ->capture_default_str();
  app.add_option("--duration-s", o.duration_s, "how long to attack")->check(CLI::Range(0.1, 86400.0))->capture_default_str();
  app.add_option("--max-datagrams", o.max_datagrams, "stop after this many")->capture_default_str();
  app.add_option("--seed", o.seed, "random seed")->capture_default_str();
  app.add_option("--phantom-group", o.phantom_group, "beacon-flood's group until a real stream is heard")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::exit(app.exit(e));
  }
  if (std::find(o.attacks.begin(), o.attacks.end(), "every") != o.attacks.end()) o.attacks = kAttackList;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  google::protobuf::SetLogHandler(nullptr);  // it parses what it hears, its own garbage included
  try {
    GroupSocket sock(o);
    std::mt19937_64 rng(o.seed);
    std::optional<Target> target;
    std::deque<Datagram> heard;  // data fragments heard, newest last (for corrupt and replay)
    std::map<std::string, std::uint64_t> sent;
    std::uint64_t total = 0, bytes = 0, heard_count = 0, claim = 0;
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.duration_s));
    const auto gap = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / o.rate));
    auto next = start;
    std::size_t turn = 0;
    while (Clock::now() < end && total < o.max_datagrams) {
      while (auto d = sock.receive()) {
        ++heard_count;
        if (auto t = learn(*d)) {
          if (!target || (t->publisher == target->publisher && t->group == target->group)) {
            if (!target || t->newest > target->newest) target = t;
          }
          heard.push_back(std::move(*d));
          if (heard.size() > 1024) heard.pop_front();
        }
      }
      if (Clock::now() < next) {
        std::this_thread::sleep_for(std::min<Clock::duration>(next - Clock::now(), std::chrono::milliseconds(5)));
        continue;
      }
      next += gap;
      const std::string& attack = o.attacks[turn++ % o.attacks.size()];
      Datagram d;
      if (attack == "malformed") {
        d = malformed(rng);
      } else if (attack == "beacon-flood") {
        const std::string group = target ? target->group : (o.phantom_group.empty() ? "g" : o.phantom_group);
        claim += 1024;
        d = phantom_beacon(rng, group, 1000, claim, target);
      } else if (attack == "request-flood" && target) {
        d = request_flood(rng, *target, o.requester);
      } else if (attack == "corrupt" && !heard.empty()) {
        d = corrupted_copy(rng, heard[rng() % heard.size()], rng() % 2 == 0);
      } else if (attack == "replay" && !heard.empty()) {
        d = heard[rng() % heard.size()];
      }
      if (d.empty() || !sock.send(d)) continue;
      ++sent[attack];
      ++total;
      bytes += d.size();
    }
    std::printf("%s\n", dissem::json_text(rogue_summary({total, bytes, heard_count, target, sent})).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissem-rogue: %s\n", e.what());
    return 1;
  }
}
