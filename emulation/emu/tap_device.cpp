#include "tap_device.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace dissem::emu {

TapDevice TapDevice::create(const std::string& name) {
  if (name.empty() || name.size() >= IFNAMSIZ)
    throw std::system_error(EINVAL, std::generic_category(), fmt::format("TAP name '{}' does not fit IFNAMSIZ", name));
  const int fd = ::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "open /dev/net/tun");
  ifreq request{};
  request.ifr_flags = IFF_TAP | IFF_NO_PI;
  std::memcpy(request.ifr_name, name.c_str(), name.size());
  if (::ioctl(fd, TUNSETIFF, &request) != 0) {
    const int error = errno;
    ::close(fd);
    throw std::system_error(error, std::generic_category(), fmt::format("TUNSETIFF {}", name));
  }
  return TapDevice(fd, name);
}

TapDevice::TapDevice(TapDevice&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), name_(std::move(other.name_)) {}

TapDevice& TapDevice::operator=(TapDevice&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    name_ = std::move(other.name_);
  }
  return *this;
}

TapDevice::~TapDevice() { close(); }

void TapDevice::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::optional<std::size_t> TapDevice::read_frame(std::span<std::uint8_t> buffer) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EAGAIN) return std::nullopt;
    if (errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), fmt::format("read from TAP {}", name_));
    }
  }
  return std::nullopt;
}

bool TapDevice::write_frame(std::span<const std::uint8_t> frame) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const ssize_t n = ::write(fd_, frame.data(), frame.size());
    if (n >= 0) return static_cast<std::size_t>(n) == frame.size();
    if (errno != EINTR) return false;
  }
  return false;
}

}  // namespace dissem::emu
