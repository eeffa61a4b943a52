// A configuration that cannot be used: a bad key or value, a file that does
// not parse, a combination of keys that cannot hold. The message names the
// key (and, from a file, where it stands). dissemd, dissem-sim and the NORM
// gateway all stop start-up with it.
#pragma once

#include <stdexcept>

namespace dissem {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dissem
