#include "engine/coders/window_image.h"

#include "engine/fragmenter.h"

namespace dissem::engine {
namespace {

// Images are the same at every node, whatever references it knows: the
// group by name, and the digest explicit (it checks what a window decodes).
constexpr wire::DataEncoding kImageEncoding{0, true, true};

wire::DataFragment canonical(const MessageMeta& meta, std::span<const std::uint8_t> payload) {
  wire::DataFragment d;
  fill_fragment(d, meta, 0, payload, false, 0);
  return d;
}

}  // namespace

std::vector<std::uint8_t> window_image(const MessageMeta& meta, std::span<const std::uint8_t> payload) {
  const auto datagram = wire::encode(canonical(meta, payload), kImageEncoding);
  std::vector<std::uint8_t> image(2 + datagram.size());
  image[0] = static_cast<std::uint8_t>(datagram.size() >> 8);
  image[1] = static_cast<std::uint8_t>(datagram.size());
  std::copy(datagram.begin(), datagram.end(), image.begin() + 2);
  return image;
}

bool window_eligible(const MessageMeta& meta, std::uint32_t payload_size) {
  if (meta.total_length == 0 || meta.total_length > payload_size) return false;
  // The image's size without building it: the frame with the payload's length.
  const std::size_t size = 2 + wire::data_frame_size(canonical(meta, {}), kImageEncoding, meta.total_length);
  return size <= payload_size && size <= 0xffff;
}

std::optional<wire::DataFragment> parse_window_image(std::span<const std::uint8_t> image, const wire::Limits& limits) {
  if (image.size() < 3) return std::nullopt;
  const std::size_t length = std::size_t{image[0]} << 8 | image[1];
  if (length == 0 || 2 + length > image.size()) return std::nullopt;
  // Past the image, the source symbol is zero padding.
  for (std::size_t i = 2 + length; i < image.size(); ++i)
    if (image[i] != 0) return std::nullopt;
  wire::Decoded decoded;
  if (wire::decode(image.subspan(2, length), limits, decoded) || decoded.kind != wire::Kind::Data) return std::nullopt;
  const auto& d = decoded.data;
  if (d.offset() != 0 || d.payload().size() != d.total_length() || d.repair() || d.hops() != 0) return std::nullopt;
  return d;
}

}  // namespace dissem::engine
