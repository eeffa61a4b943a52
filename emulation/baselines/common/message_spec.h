// The --messages argument of dissem-norm and dissem-pgm: which messages the
// sender enqueues, as sizes.
#pragma once

#include <cstdint>
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

}  // namespace dissem::baseline
