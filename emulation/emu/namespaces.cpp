#include "namespaces.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "command.h"

namespace dissem::emu {
namespace {

// ip lives in /usr/sbin or /sbin, which a non-login PATH may lack.
const std::string& ip_program() {
  static const std::string path = [] {
    for (const char* candidate : {"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"})
      if (::access(candidate, X_OK) == 0) return std::string(candidate);
    return std::string("ip");
  }();
  return path;
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::optional<std::size_t> node_suffix(std::string_view name, std::string_view prefix) {
  const std::string marker = std::string(prefix).append("-n");
  if (name.size() <= marker.size() || name.substr(0, marker.size()) != marker) return std::nullopt;
  const std::string_view digits = name.substr(marker.size());
  std::size_t id = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  return id;
}

}  // namespace

std::string namespace_name(std::string_view prefix, NodeId node) {
  std::string name(prefix);
  name.append("-n").append(std::to_string(node));
  return name;
}

std::vector<std::string> namespaces_with_prefix(std::string_view prefix) {
  std::vector<std::pair<std::size_t, std::string>> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kNetnsDirectory, ec)) {
    const std::string name = entry.path().filename().string();
    if (const auto id = node_suffix(name, prefix)) found.emplace_back(*id, name);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (auto& [id, name] : found) names.push_back(std::move(name));
  return names;
}

void create_namespaces(const std::vector<std::string>& names) {
  std::string commands;
  for (const auto& n : names) commands.append("netns add ").append(n).append("\n");
  run_checked({ip_program(), "-batch", "-"}, commands);
}

std::vector<std::string> delete_namespaces(const std::vector<std::string>& names) {
  if (!names.empty()) {
    std::string commands;
    for (const auto& n : names) commands.append("netns del ").append(n).append("\n");
    run_command({ip_program(), "-force", "-batch", "-"}, commands);
  }
  std::vector<std::string> left;
  for (const auto& n : names)
    if (std::filesystem::exists(std::filesystem::path(kNetnsDirectory) / n)) left.push_back(n);
  return left;
}

void move_links_to_namespaces(const std::vector<std::pair<std::string, std::string>>& moves) {
  std::string commands;
  for (const auto& [link, ns] : moves) commands.append(fmt::format("link set dev {} netns {}\n", link, ns));
  run_checked({ip_program(), "-batch", "-"}, commands);
}

void ip_batch_in_namespace(const std::string& ns, const std::string& commands) {
  run_checked({ip_program(), "-n", ns, "-batch", "-"}, commands);
}

bool write_sysctl_in_namespace(const std::string& ns, const std::string& proc_path, std::string_view value) {
  const Fd home(::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC));
  const std::string ns_path = std::string(kNetnsDirectory).append("/").append(ns);
  const Fd target(::open(ns_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (home.get() < 0 || target.get() < 0)
    throw std::system_error(errno, std::generic_category(), fmt::format("open network namespace {}", ns));
  if (::setns(target.get(), CLONE_NEWNET) != 0)
    throw std::system_error(errno, std::generic_category(), fmt::format("enter network namespace {}", ns));
  // /proc/sys/net shows the namespace of whoever opens the file.
  const int fd = ::open(proc_path.c_str(), O_WRONLY | O_CLOEXEC);
  const int open_error = errno;
  bool written = false;
  if (fd >= 0) {
    written = ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
    ::close(fd);
  }
  if (::setns(home.get(), CLONE_NEWNET) != 0)
    throw std::system_error(errno, std::generic_category(), "return to the emulator's network namespace");
  if (fd < 0 && open_error == ENOENT) return false;
  if (!written) throw std::runtime_error(fmt::format("cannot set {} in namespace {}", proc_path, ns));
  return true;
}

std::vector<std::string> pids_in_namespace(const std::string& ns) {
  const CommandResult r = run_command({ip_program(), "netns", "pids", ns});
  std::vector<std::string> pids;
  std::istringstream in(r.output);
  for (std::string pid; in >> pid;) pids.push_back(pid);
  return r.exit_code == 0 ? pids : std::vector<std::string>{};
}

}  // namespace dissem::emu
