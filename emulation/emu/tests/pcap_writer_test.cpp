#include "pcap_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

namespace dissem::emu {
namespace {

template <typename T>
T read_at(const std::vector<char>& bytes, std::size_t offset) {
  T v{};
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

TEST(PcapWriter, WritesGlobalHeaderAndRecords) {
  std::string name = "emu_pcap_test_";
  name.append(std::to_string(::getpid())).append(".pcap");
  const auto path = std::filesystem::temp_directory_path() / name;
  {
    PcapWriter w(path.string());
    const std::vector<std::uint8_t> frame(60, 0xab);
    w.write(1'700'000'000'123'456'789LL, frame);
    w.write(1'700'000'001'000'000'000LL, std::vector<std::uint8_t>(14, 1));
    EXPECT_TRUE(w.flush());
  }
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  ASSERT_EQ(bytes.size(), 24u + 16u + 60u + 16u + 14u);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 0), kPcapMagicMicroseconds);
  EXPECT_EQ(read_at<std::uint16_t>(bytes, 4), 2);
  EXPECT_EQ(read_at<std::uint16_t>(bytes, 6), 4);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 16), kPcapSnapLength);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 20), kLinktypeEthernet);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 24), 1'700'000'000u);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 28), 123'456u);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 32), 60u);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 36), 60u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[40]), 0xab);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 100), 1'700'000'001u);
  EXPECT_EQ(read_at<std::uint32_t>(bytes, 104), 0u);
}

TEST(PcapWriter, UnwritablePathIsNamed) {
  try {
    PcapWriter w("/nonexistent-dir/n1.pcap");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/n1.pcap"), std::string::npos);
  }
}

}  // namespace
}  // namespace dissem::emu
