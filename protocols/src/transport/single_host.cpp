#include <cstdlib>
#include <stdexcept>

#include "transport.hpp"

namespace mpisim::protocols {

void SingleHost::send_parts(int to, FrameKind, std::span<const std::byte>,
                            std::span<const std::byte>) {
  throw std::logic_error("a frame to host " + std::to_string(to) + " with one host process");
}

int launched_processes() {
  const char* size = std::getenv("PMI_SIZE");
  return size && std::atoi(size) > 1 ? std::atoi(size) : 1;
}

bool launched_as_several_processes() {
  return launched_processes() > 1;
}

} // namespace mpisim::protocols
