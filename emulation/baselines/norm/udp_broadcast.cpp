#include "udp_broadcast.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdlib>

namespace dissem::norm_baseline {

bool needs_broadcast_permission(const std::string& address) {
  in_addr addr{};
  if (inet_pton(AF_INET, address.c_str(), &addr) != 1) return false;
  return !IN_MULTICAST(ntohl(addr.s_addr));
}

int allow_broadcast_on_udp_sockets() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return 0;
  int changed = 0;
  int dir_fd = dirfd(dir);
  while (dirent* entry = readdir(dir)) {
    char* end = nullptr;
    long fd = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0' || fd == dir_fd) continue;
    int domain = 0;
    int type = 0;
    socklen_t len = sizeof domain;
    if (getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_INET) continue;
    len = sizeof type;
    if (getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_DGRAM) continue;
    int on = 1;
    if (setsockopt(static_cast<int>(fd), SOL_SOCKET, SO_BROADCAST, &on, sizeof on) == 0) ++changed;
  }
  closedir(dir);
  return changed;
}

}  // namespace dissem::norm_baseline
