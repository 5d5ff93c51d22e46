// The error every layer throws for a bad setting, machine file or value, so that the tools
// report it the same way (the message, and exit status 2).
#pragma once

#include <stdexcept>

namespace mpisim {

/// A bad or unknown setting. what() names the variable, the problem and the allowed values.
class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace mpisim
