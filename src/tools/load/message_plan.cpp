#include "tools/load/message_plan.h"

#include <stdexcept>
#include <string>

#include "config/setting_text.h"
#include "tools/load/stamped_payload.h"

namespace dissem::load {
namespace {

std::size_t number(const std::string& item, std::string_view text) {
  const auto v = read_whole_number(text);
  if (!v)
    throw std::invalid_argument("message sizes: '" + item + "' is not COUNTxBYTES or BYTES");
  return static_cast<std::size_t>(*v);
}

}  // namespace

std::vector<std::size_t> parse_message_sizes(const std::string& spec) {
  constexpr std::size_t kMaxMessages = 1'000'000;
  constexpr std::size_t kMaxBytes = 1ull << 30;
  std::vector<std::size_t> sizes;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, comma - start);
    const std::size_t x = item.find('x');
    const std::size_t count = x == std::string::npos ? 1 : number(item, std::string_view(item).substr(0, x));
    const std::size_t bytes = number(item, x == std::string::npos ? std::string_view(item) : std::string_view(item).substr(x + 1));
    if (bytes < kStampBytes || bytes > kMaxBytes)
      throw std::invalid_argument("message sizes: '" + item + "': a message is " + std::to_string(kStampBytes) +
                                  " bytes .. 1 GiB");
    if (count == 0 || sizes.size() + count > kMaxMessages)
      throw std::invalid_argument("message sizes: '" + item + "': 1 .. 1,000,000 messages in all");
    sizes.insert(sizes.end(), count, bytes);
    start = comma + 1;
  }
  return sizes;
}

}  // namespace dissem::load
