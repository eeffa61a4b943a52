#include "message_spec.h"

#include <stdexcept>
#include <string>

#include "command_line.h"
#include "config/setting_text.h"

namespace dissem::baseline {
namespace {

// Whole-string unsigned decimal (config/setting_text.h); std::stoul would
// accept "12abc" and "-1".
std::uint64_t parse_count(std::string_view text, const char* what) {
  const auto value = read_whole_number(text);
  if (!value) throw std::invalid_argument(std::string(what) + " '" + std::string(text) + "' is not a whole number");
  return *value;
}

std::uint32_t parse_size(std::string_view text) {
  std::uint64_t bytes = parse_count(text, "size");
  if (bytes == 0 || bytes > kMaxMessageBytes) {
    throw std::invalid_argument("size " + std::string(text) + " is outside 1.." + std::to_string(kMaxMessageBytes));
  }
  return static_cast<std::uint32_t>(bytes);
}

std::vector<std::uint32_t> parse_sizes(std::string_view spec) {
  std::vector<std::uint32_t> sizes;
  if (auto x = spec.find('x'); x != std::string_view::npos) {
    std::uint64_t count = parse_count(spec.substr(0, x), "count");
    if (count == 0 || count > kMaxMessages) {
      throw std::invalid_argument("count must be 1.." + std::to_string(kMaxMessages));
    }
    sizes.assign(static_cast<std::size_t>(count), parse_size(spec.substr(x + 1)));
    return sizes;
  }
  while (true) {
    auto comma = spec.find(',');
    sizes.push_back(parse_size(spec.substr(0, comma)));
    if (sizes.size() > kMaxMessages) throw std::invalid_argument("more than " + std::to_string(kMaxMessages) + " messages");
    if (comma == std::string_view::npos) break;
    spec.remove_prefix(comma + 1);
  }
  return sizes;
}

}  // namespace

std::vector<std::uint32_t> parse_message_spec(std::string_view spec) {
  try {
    return parse_sizes(spec);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(e.what()) + " (expected COUNTxBYTES, e.g. 3x200000, or a comma list of sizes)");
  }
}

std::vector<std::uint32_t> parse_messages_option(const std::string& text, std::uint64_t max_total_bytes,
                                                 std::string_view why) {
  std::vector<std::uint32_t> sizes;
  try {
    sizes = parse_message_spec(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--messages: ") + e.what());
  }
  std::uint64_t total = 0;
  for (auto size : sizes) total += size;
  if (total > max_total_bytes) {
    throw UsageError("--messages: " + std::to_string(total) + " bytes in all; at most " +
                     std::to_string(max_total_bytes) + " (" + std::string(why) + ")");
  }
  return sizes;
}

}  // namespace dissem::baseline
