// One copy of the program's code for every rank of a host process, when each rank loads a copy
// of the program (mpisimfort, loader_main.cpp).
//
// Each rank's copy is a file of its own, so its code had pages of its own: at 1 024 ranks of NPB
// CG the ranks ran 1 024 copies of the same instructions, each fetched from memory again, and
// sharing one copy took about 10 % off the run's CPU time (docs/performance.md). The code of a
// position-independent object is not changed by relocation, so after a copy is loaded its
// read-only segments (code, constants) are mapped again, at the same addresses, from one file
// that holds the program once: every rank then runs the same physical pages, while its data
// (COMMON blocks, module variables, C globals) stays its own.
#pragma once

#include <cstddef>
#include <string>

namespace mpisim {

/// Writes the `size` bytes of `image` to `fd`: false on an error.
bool write_image(int fd, const void* image, std::size_t size);

class SharedText {
public:
  /// The program image `image` (an ELF shared object) of `size` bytes, written once to a memory
  /// file. An image whose code is relocated at load time (text relocations) is left alone: its
  /// copies differ.
  SharedText(const void* image, std::size_t size);
  ~SharedText();
  SharedText(const SharedText&) = delete;
  SharedText& operator=(const SharedText&) = delete;

  /// Maps the read-only segments of a copy of the image loaded at `base` (its link map's l_addr)
  /// from the one file. Returns an empty string, or why it could not (the copy keeps its own
  /// pages then, which costs only speed).
  std::string share(std::size_t base) const;

private:
  const unsigned char* image_;
  std::size_t size_;
  int fd_ = -1;
};

} // namespace mpisim
