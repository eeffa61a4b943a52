// One TAP device: Ethernet frames in and out of a kernel network interface
// through a file descriptor. The device is not persistent, so it disappears
// when the descriptor closes, including when the emulator is killed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace dissem::emu {

class TapDevice {
 public:
  // Creates TAP `name` (IFF_TAP | IFF_NO_PI: frames without a packet-info
  // header) in the caller's network namespace, non-blocking. Throws
  // std::system_error naming the device.
  static TapDevice create(const std::string& name);

  TapDevice(TapDevice&& other) noexcept;
  TapDevice& operator=(TapDevice&& other) noexcept;
  TapDevice(const TapDevice&) = delete;
  TapDevice& operator=(const TapDevice&) = delete;
  ~TapDevice();

  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  // After the device is renamed (inside its namespace): for messages only.
  void set_name(std::string name) { name_ = std::move(name); }

  // One frame into `buffer`; nullopt when none is waiting. Throws on errors
  // other than "nothing to read".
  std::optional<std::size_t> read_frame(std::span<std::uint8_t> buffer);
  // False if the kernel refused the frame.
  bool write_frame(std::span<const std::uint8_t> frame);

  void close();

 private:
  TapDevice(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  int fd_ = -1;
  std::string name_;
};

}  // namespace dissem::emu
