// The TCP baseline's framing: messages cut back out of any split of the
// byte stream, message boundaries counted as the socket takes bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "frame_codec.h"

namespace dissem::tcp_baseline {
namespace {

std::vector<std::uint8_t> bytes(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(seed + i * 7);
  return out;
}

TEST(SendBuffer, CountsMessagesAsTheirLastByteIsWritten) {
  SendBuffer b;
  EXPECT_TRUE(b.empty());
  b.push(bytes(10, 1));
  b.push(bytes(3, 2));
  ASSERT_EQ(b.pending().size(), 4u + 10 + 4 + 3);
  EXPECT_EQ(b.pending()[3], 10u);  // big-endian length first
  EXPECT_EQ(b.messages_pending(), 2u);
  EXPECT_EQ(b.consume(13), 0u);  // one byte of the first message left
  EXPECT_EQ(b.consume(1), 1u);
  EXPECT_EQ(b.consume(7), 1u);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.messages_written(), 2u);
  EXPECT_EQ(b.bytes_written(), 21u);
  // Large traffic keeps memory to what is pending (the front is dropped).
  for (int i = 0; i < 1000; ++i) {
    b.push(bytes(1000, static_cast<std::uint8_t>(i)));
    b.consume(600);
  }
  EXPECT_LT(b.pending().size(), 1004u * 1000);
  EXPECT_EQ(b.bytes_written(), 21u + 600u * 1000);
  const std::size_t pending_messages = b.messages_pending();
  EXPECT_EQ(b.consume(b.pending().size()), pending_messages);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.messages_written(), 1002u);
}

TEST(FrameReader, ReassemblesMessagesFromAnySplit) {
  SendBuffer b;
  const std::vector<std::vector<std::uint8_t>> sent = {bytes(1, 3), bytes(1024, 4), bytes(0, 5), bytes(70000, 6)};
  for (const auto& m : sent) b.push(m);
  const auto stream = std::vector<std::uint8_t>(b.pending().begin(), b.pending().end());
  for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{4096}, stream.size()}) {
    FrameReader r;
    std::vector<std::vector<std::uint8_t>> got;
    for (std::size_t at = 0; at < stream.size(); at += chunk) {
      r.feed({stream.data() + at, std::min(chunk, stream.size() - at)});
      while (auto m = r.next()) got.push_back(*m);
    }
    EXPECT_EQ(got, sent) << "chunks of " << chunk;
    EXPECT_EQ(r.partial_bytes(), 0u);
  }
}

TEST(FrameReader, RefusesALengthBeyondTheLimit) {
  FrameReader r;
  const std::uint8_t huge[] = {0x7f, 0xff, 0xff, 0xff, 0};
  r.feed(huge);
  EXPECT_THROW(r.next(), FrameError);
  SendBuffer b;
  EXPECT_NO_THROW(b.push(bytes(16, 0)));
}

}  // namespace
}  // namespace dissem::tcp_baseline
