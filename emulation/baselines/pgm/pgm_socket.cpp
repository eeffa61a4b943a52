#include "pgm_socket.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <random>

namespace dissem::pgm_baseline {
namespace {

// pgm_poll_info needs room for the receive socket, the repair and pending
// notifications, and the send socket.
constexpr int kMaxPollFds = 4;

double timeval_s(const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; }

// Frees a pgm_getaddrinfo result on every path.
struct AddrInfo {
  pgm_addrinfo_t* res = nullptr;
  ~AddrInfo() {
    if (res) pgm_freeaddrinfo(res);
  }
};

// The interface's first IPv4 address, as text. pgm_getaddrinfo skips
// loopback devices when given a name ("lo"), but takes their address, with a
// warning; the address also works for every other interface.
std::string interface_address(const std::string& name) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) throw PgmError(fmt::format("getifaddrs: {}", std::strerror(errno)));
  std::string found;
  for (ifaddrs* ifa = list; ifa && found.empty(); ifa = ifa->ifa_next) {
    if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != AF_INET || name != ifa->ifa_name) continue;
    char text[INET_ADDRSTRLEN];
    const auto* in = reinterpret_cast<const sockaddr_in*>(ifa->ifa_addr);
    if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text)) found = text;
  }
  freeifaddrs(list);
  if (found.empty()) throw PgmError(fmt::format("interface {} has no IPv4 address", name));
  return found;
}

}  // namespace

std::string take_error(pgm_error_t* error) {
  if (!error) return "unknown error";
  std::string text = error->message ? error->message : "unknown error";
  pgm_error_free(error);
  return text;
}

PgmSocket::Engine::Engine() {
  pgm_error_t* error = nullptr;
  if (!pgm_init(&error)) throw PgmError("pgm_init: " + take_error(error));
}

PgmSocket::Engine::~Engine() { pgm_shutdown(); }

PgmSocket::PgmSocket(const CommonOptions& c, const char* role, const std::function<void(PgmSocket&)>& configure) {
  // "ADDRESS;GROUP": receive and send on GROUP through the interface with
  // ADDRESS; ";GROUP" lets OpenPGM pick the interface of the default route.
  std::string network = (c.interface.empty() ? "" : interface_address(c.interface)) + ";" + c.group;
  AddrInfo info;
  pgm_addrinfo_t hints{};
  hints.ai_family = AF_INET;
  pgm_error_t* error = nullptr;
  if (!pgm_getaddrinfo(network.c_str(), &hints, &info.res, &error)) {
    throw PgmError(fmt::format("pgm_getaddrinfo('{}'): {}", network, take_error(error)));
  }
  if (info.res->ai_send_addrs_len < 1 || info.res->ai_recv_addrs_len < 1) {
    throw PgmError(fmt::format("pgm_getaddrinfo('{}'): no group", network));
  }
  // SOCK_SEQPACKET + IPPROTO_UDP: PGM encapsulated in UDP, which needs no
  // raw-socket privileges.
  if (!pgm_socket(&sock_, AF_INET, SOCK_SEQPACKET, IPPROTO_UDP, &error)) {
    throw PgmError("pgm_socket: " + take_error(error));
  }
  try {
    // NAKs are unicast to the sender's UDP encapsulation unicast port, but
    // a socket listens only on its multicast port: the two must be equal.
    set(PGM_UDP_ENCAP_UCAST_PORT, c.port, "PGM_UDP_ENCAP_UCAST_PORT");
    set(PGM_UDP_ENCAP_MCAST_PORT, c.port, "PGM_UDP_ENCAP_MCAST_PORT");
    set(PGM_IP_ROUTER_ALERT, 0, "PGM_IP_ROUTER_ALERT");  // no PGM routers on emulated links
    set(PGM_MTU, max_tpdu(c), "PGM_MTU");
    configure(*this);

    // The TSI (GSI + source port) must differ between the processes of a
    // session; the usual GSI from the host name does not, on one host.
    std::random_device random;
    std::string seed = fmt::format("dissem-pgm/{}/{}/{}/{}", role, c.node_id, ::getpid(), random());
    pgm_sockaddr_t addr{};
    addr.sa_port = c.port;  // PGM's data-destination port
    addr.sa_addr.sport = static_cast<std::uint16_t>(1 + random() % 65535);
    if (!pgm_gsi_create_from_data(&addr.sa_addr.gsi, reinterpret_cast<const std::uint8_t*>(seed.data()), seed.size())) {
      throw PgmError("pgm_gsi_create_from_data failed");
    }
    pgm_interface_req_t if_req{};
    if_req.ir_interface = info.res->ai_send_addrs[0].gsr_interface;
    std::memcpy(&if_req.ir_address, &info.res->ai_send_addrs[0].gsr_addr, sizeof if_req.ir_address);
    if (!pgm_bind3(sock_, &addr, sizeof addr, &if_req, sizeof if_req, &if_req, sizeof if_req, &error)) {
      throw PgmError("pgm_bind3: " + take_error(error));
    }
    for (std::uint32_t i = 0; i < info.res->ai_recv_addrs_len; ++i) {
      set_bytes(PGM_JOIN_GROUP, &info.res->ai_recv_addrs[i], sizeof(pgm_group_source_req), "PGM_JOIN_GROUP");
    }
    set_bytes(PGM_SEND_GROUP, &info.res->ai_send_addrs[0], sizeof(pgm_group_source_req), "PGM_SEND_GROUP");
    set(PGM_MULTICAST_LOOP, c.loopback ? 1 : 0, "PGM_MULTICAST_LOOP");
    set(PGM_MULTICAST_HOPS, c.ttl, "PGM_MULTICAST_HOPS");
    set(PGM_NOBLOCK, 1, "PGM_NOBLOCK");
    if (!pgm_connect(sock_, &error)) throw PgmError("pgm_connect: " + take_error(error));
  } catch (...) {
    pgm_close(sock_, false);
    throw;
  }
}

PgmSocket::~PgmSocket() {
  // flush = true: a sender still sends its final SPMs.
  pgm_close(sock_, true);
}

void PgmSocket::set(int option, int value, const char* name) { set_bytes(option, &value, sizeof value, name); }

void PgmSocket::set_bytes(int option, const void* value, socklen_t length, const char* name) {
  if (!pgm_setsockopt(sock_, IPPROTO_PGM, option, value, length)) {
    throw PgmError(fmt::format("pgm_setsockopt({}) refused", name));
  }
}

double PgmSocket::time_remain_s() const {
  timeval tv{};
  socklen_t length = sizeof tv;
  if (!pgm_getsockopt(sock_, IPPROTO_PGM, PGM_TIME_REMAIN, &tv, &length)) return 0;
  return timeval_s(tv);
}

double PgmSocket::rate_remain_s() const {
  timeval tv{};
  socklen_t length = sizeof tv;
  if (!pgm_getsockopt(sock_, IPPROTO_PGM, PGM_RATE_REMAIN, &tv, &length)) return 0;
  return timeval_s(tv);
}

void PgmSocket::wait(double timeout_s, bool for_write, bool repairs_blocked) const {
  pollfd fds[kMaxPollFds] = {};
  int count = kMaxPollFds;
  short events = static_cast<short>(POLLIN | (for_write ? POLLOUT : 0));
  if (pgm_poll_info(sock_, fds, &count, events) < 0) throw PgmError("pgm_poll_info failed");
  if (repairs_blocked) {
    int repair_fd = -1;
    socklen_t length = sizeof repair_fd;
    if (pgm_getsockopt(sock_, IPPROTO_PGM, PGM_REPAIR_SOCK, &repair_fd, &length)) {
      for (int i = 0; i < count; ++i) {
        if (fds[i].fd == repair_fd) fds[i].fd = -1;  // poll ignores negative descriptors
      }
    }
  }
  double bounded = std::max(timeout_s, 0.0);
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(bounded);
  ts.tv_nsec = static_cast<long>(std::ceil((bounded - static_cast<double>(ts.tv_sec)) * 1e9));
  if (ts.tv_nsec >= 1000000000L) {
    ++ts.tv_sec;
    ts.tv_nsec -= 1000000000L;
  }
  if (ppoll(fds, static_cast<nfds_t>(count), &ts, nullptr) < 0 && errno != EINTR) {
    throw PgmError(fmt::format("ppoll: {}", std::strerror(errno)));
  }
}

int PgmSocket::recv_fd() const {
  int fd = -1;
  socklen_t length = sizeof fd;
  if (!pgm_getsockopt(sock_, IPPROTO_PGM, PGM_RECV_SOCK, &fd, &length)) throw PgmError("PGM_RECV_SOCK refused");
  return fd;
}

}  // namespace dissem::pgm_baseline
