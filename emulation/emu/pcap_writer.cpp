#include "pcap_writer.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace dissem::emu {
namespace {

struct GlobalHeader {
  std::uint32_t magic;
  std::uint16_t version_major;
  std::uint16_t version_minor;
  std::int32_t thiszone;
  std::uint32_t sigfigs;
  std::uint32_t snaplen;
  std::uint32_t network;
};
static_assert(sizeof(GlobalHeader) == 24);

struct RecordHeader {
  std::uint32_t ts_sec;
  std::uint32_t ts_usec;
  std::uint32_t incl_len;
  std::uint32_t orig_len;
};
static_assert(sizeof(RecordHeader) == 16);

}  // namespace

PcapWriter::PcapWriter(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw std::runtime_error(fmt::format("cannot create pcap file {}: {}", path, std::strerror(errno)));
  const GlobalHeader h{kPcapMagicMicroseconds, 2, 4, 0, 0, kPcapSnapLength, kLinktypeEthernet};
  if (std::fwrite(&h, sizeof h, 1, file_) != 1) {
    std::fclose(file_);
    file_ = nullptr;
    throw std::runtime_error(fmt::format("cannot write pcap file {}", path));
  }
}

PcapWriter::~PcapWriter() {
  if (file_) std::fclose(file_);
}

void PcapWriter::write(std::int64_t unix_time_ns, std::span<const std::uint8_t> frame) {
  const auto captured = static_cast<std::uint32_t>(frame.size() < kPcapSnapLength ? frame.size() : kPcapSnapLength);
  const RecordHeader r{static_cast<std::uint32_t>(unix_time_ns / 1'000'000'000),
                       static_cast<std::uint32_t>(unix_time_ns % 1'000'000'000 / 1000), captured,
                       static_cast<std::uint32_t>(frame.size())};
  // A full disk loses capture records, never forwarding: a failure is only
  // remembered, for flush() to report.
  const bool ok = std::fwrite(&r, sizeof r, 1, file_) == 1 && std::fwrite(frame.data(), 1, captured, file_) == captured;
  failed_ = failed_ || !ok;
}

bool PcapWriter::flush() {
  failed_ = std::fflush(file_) != 0 || failed_;
  return !failed_;
}

}  // namespace dissem::emu
