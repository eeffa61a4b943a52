// The IPC frame codec: 4-byte big-endian length + protobuf body, decoded
// incrementally and refusing oversize declarations before allocating.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "ipc.pb.h"
#include "ipc/framing.h"

namespace dissem::ipc::ipc_framing_test {
namespace {

std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

ClientMessage sample_publish(std::size_t payload_size) {
  ClientMessage m;
  m.set_request_id(42);
  auto& p = *m.mutable_publish();
  p.set_group("news");
  std::string payload(payload_size, '\0');
  for (std::size_t i = 0; i < payload_size; ++i) payload[i] = static_cast<char>(i * 7);
  p.set_payload(payload);
  p.set_priority(3);
  p.set_tag("t");
  return m;
}

TEST(IpcFraming, HeaderIsBigEndianLength) {
  const ClientMessage m = sample_publish(300);
  const std::string frame = encode_frame(m);
  ASSERT_EQ(frame.size(), kFrameHeaderBytes + m.ByteSizeLong());
  const std::uint32_t declared = std::uint32_t{static_cast<std::uint8_t>(frame[0])} << 24 |
                                 std::uint32_t{static_cast<std::uint8_t>(frame[1])} << 16 |
                                 std::uint32_t{static_cast<std::uint8_t>(frame[2])} << 8 |
                                 std::uint32_t{static_cast<std::uint8_t>(frame[3])};
  EXPECT_EQ(declared, m.ByteSizeLong());
}

TEST(IpcFraming, RoundTripSeveralFramesInOneFeed) {
  std::string stream;
  for (std::size_t size : {0, 1, 1000, 70000}) stream += encode_frame(sample_publish(size));
  ClientMessage empty;
  stream += encode_frame(empty);  // zero-length body

  FrameDecoder d;
  d.feed(bytes_of(stream));
  for (std::size_t size : {0, 1, 1000, 70000}) {
    auto body = d.next();
    ASSERT_TRUE(body.has_value());
    ClientMessage m;
    ASSERT_TRUE(m.ParseFromString(*body));
    EXPECT_EQ(m.request_id(), 42u);
    EXPECT_EQ(m.publish().payload(), sample_publish(size).publish().payload());
  }
  auto last = d.next();
  ASSERT_TRUE(last.has_value());
  EXPECT_TRUE(last->empty());
  EXPECT_FALSE(d.next().has_value());
  EXPECT_EQ(d.error(), FrameDecoder::Error::None);
}

TEST(IpcFraming, PartialDeliveryByteByByte) {
  const std::string stream = encode_frame(sample_publish(513)) + encode_frame(sample_publish(2));
  FrameDecoder d;
  std::vector<std::string> frames;
  for (std::size_t i = 0; i < stream.size(); ++i) {
    d.feed(bytes_of(stream).subspan(i, 1));
    while (auto f = d.next()) frames.push_back(*f);
    // Nothing is complete before the last byte of each frame arrives.
    if (i + 1 < kFrameHeaderBytes + sample_publish(513).ByteSizeLong()) {
      EXPECT_TRUE(frames.empty());
    }
  }
  ASSERT_EQ(frames.size(), 2u);
  ClientMessage a, b;
  ASSERT_TRUE(a.ParseFromString(frames[0]));
  ASSERT_TRUE(b.ParseFromString(frames[1]));
  EXPECT_EQ(a.publish().payload().size(), 513u);
  EXPECT_EQ(b.publish().payload().size(), 2u);
}

TEST(IpcFraming, RandomSplitsDecodeTheSame) {
  std::string stream;
  for (int i = 0; i < 20; ++i) stream += encode_frame(sample_publish(static_cast<std::size_t>(i) * 333));
  std::mt19937 rng(7);
  FrameDecoder d;
  std::size_t at = 0;
  int count = 0;
  while (at < stream.size()) {
    const std::size_t n = std::min<std::size_t>(stream.size() - at, rng() % 5000 + 1);
    d.feed(bytes_of(stream).subspan(at, n));
    at += n;
    while (auto f = d.next()) {
      ClientMessage m;
      ASSERT_TRUE(m.ParseFromString(*f));
      EXPECT_EQ(m.publish().payload().size(), static_cast<std::size_t>(count) * 333);
      ++count;
    }
  }
  EXPECT_EQ(count, 20);
}

TEST(IpcFraming, OversizeDeclaredLengthRejectedWithoutAllocation) {
  FrameDecoder d(1024 * 1024);
  // Declares 4 GiB - 1; only the header arrives.
  const std::uint8_t header[] = {0xff, 0xff, 0xff, 0xff};
  d.feed(header);
  EXPECT_EQ(d.error(), FrameDecoder::Error::TooLarge);
  EXPECT_EQ(d.rejected_length(), 0xffffffffu);
  EXPECT_FALSE(d.next().has_value());
  // Nothing near the declared size was reserved.
  EXPECT_LT(d.buffered_capacity(), 1024u);
  // Later input is ignored rather than misread as a new frame.
  const std::string good = encode_frame(sample_publish(5));
  d.feed(bytes_of(good));
  EXPECT_FALSE(d.next().has_value());
}

TEST(IpcFraming, LengthJustAtTheLimitIsAccepted) {
  FrameDecoder d(100);
  std::uint8_t header[kFrameHeaderBytes];
  put_frame_header(100, header);
  d.feed(header);
  EXPECT_EQ(d.error(), FrameDecoder::Error::None);
  std::uint8_t over[kFrameHeaderBytes];
  put_frame_header(101, over);
  FrameDecoder e(100);
  e.feed(over);
  EXPECT_EQ(e.error(), FrameDecoder::Error::TooLarge);
}

TEST(IpcFraming, LargeDeclaredLengthReservesOnlyWhatArrives) {
  FrameDecoder d(64u * 1024 * 1024);
  std::uint8_t header[kFrameHeaderBytes];
  put_frame_header(60u * 1024 * 1024, header);
  d.feed(header);
  const std::string some(1000, 'x');
  d.feed(bytes_of(some));
  EXPECT_EQ(d.error(), FrameDecoder::Error::None);
  EXPECT_LE(d.buffered_capacity(), 256u * 1024);
}

TEST(IpcFraming, GarbageBodyFramesButDoesNotParse) {
  // A well-formed frame whose body is not a ClientMessage: framing passes it
  // through; the parse step (the server's) is what refuses it.
  const std::string body = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";
  std::uint8_t header[kFrameHeaderBytes];
  put_frame_header(static_cast<std::uint32_t>(body.size()), header);
  std::string stream(reinterpret_cast<const char*>(header), kFrameHeaderBytes);
  stream += body;
  FrameDecoder d;
  d.feed(bytes_of(stream));
  auto f = d.next();
  ASSERT_TRUE(f.has_value());
  ClientMessage m;
  EXPECT_FALSE(m.ParseFromString(*f));
}

TEST(IpcFraming, RandomGarbageNeverCrashesOrOverAllocates) {
  std::mt19937 rng(99);
  for (int round = 0; round < 200; ++round) {
    FrameDecoder d(4096);
    std::vector<std::uint8_t> junk(rng() % 3000);
    for (auto& b : junk) b = static_cast<std::uint8_t>(rng());
    d.feed(junk);
    while (auto f = d.next()) {
      EXPECT_LE(f->size(), 4096u);
      ClientMessage m;
      (void)m.ParseFromString(*f);
    }
    EXPECT_LE(d.buffered_capacity(), 64u * 1024);
  }
}

}  // namespace
}  // namespace dissem::ipc::ipc_framing_test
