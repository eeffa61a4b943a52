// The --messages argument of dissem-norm and dissem-pgm: which messages the
// sender enqueues, as sizes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dissem::baseline {

// Largest single message: NormDataEnqueue takes a 32-bit length, and every
// buffer stays in memory until NORM purges it (PGM: in the transmit window),
// so keep well below that.
inline constexpr std::uint64_t kMaxMessageBytes = 1ull << 30;
// Upper bound on the number of messages; the transmit cache can hold at most
// 32767 objects (half the 16-bit NORM object id space).
inline constexpr std::size_t kMaxMessages = 32767;

// Parses "COUNTxBYTES" (e.g. "1x819200") or a comma list of sizes
// ("1000,2000"). Every size is 1..kMaxMessageBytes. Throws
// std::invalid_argument with a reason that does not repeat the option name.
std::vector<std::uint32_t> parse_message_spec(std::string_view spec);

// The --messages option of a sender: parse_message_spec, and at most
// max_total_bytes in all. Throws UsageError (common/command_line.h) starting
// "--messages: "; `why` says why the total is bounded.
std::vector<std::uint32_t> parse_messages_option(const std::string& text, std::uint64_t max_total_bytes,
                                                 std::string_view why);

}  // namespace dissem::baseline
