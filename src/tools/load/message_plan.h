// What an experiment's publisher sends: message sizes, in order, and the
// pause between them. Parsed from the command line:
//   "3x819200"            three messages of 819,200 bytes
//   "1024,7168,15360"     one message of each size
//   "40x1024,7168"        items combine; a "KxN" item repeats N K times
// Bad text throws std::invalid_argument naming the offending item.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace dissem::load {

std::vector<std::size_t> parse_message_sizes(const std::string& spec);

}  // namespace dissem::load
