// Classic pcap files (not pcapng): a 24-byte global header, then a 16-byte
// record header before each frame. Written in the machine's byte order,
// which readers detect from the magic number. Link type Ethernet.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

namespace dissem::emu {

inline constexpr std::uint32_t kPcapMagicMicroseconds = 0xa1b2c3d4;
inline constexpr std::uint32_t kLinktypeEthernet = 1;
inline constexpr std::uint32_t kPcapSnapLength = 65535;

class PcapWriter {
 public:
  // Creates (truncates) `path` and writes the global header; throws
  // std::runtime_error naming the path.
  explicit PcapWriter(const std::string& path);
  ~PcapWriter();
  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  // `unix_time_ns`: wall-clock time of the frame.
  void write(std::int64_t unix_time_ns, std::span<const std::uint8_t> frame);
  // False once any record could not be written.
  bool flush();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;
};

}  // namespace dissem::emu
