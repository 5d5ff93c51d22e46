#include "fresh_heap.hpp"

#include "zeroed_blocks.hpp"

namespace mpisim {

void make_heap_fresh() {
  mpilite::zero_new_blocks();
}

} // namespace mpisim

// Under AddressSanitizer, its allocator replaces glibc's (and the interposer leaves blocks to
// it): it fills new blocks with malloc_fill_byte, up to max_malloc_fill_size bytes (0xbe and
// 4 KiB by default). ASAN_OPTIONS given at run time still override these.
extern "C" const char* __asan_default_options() {
  return "malloc_fill_byte=0:max_malloc_fill_size=2147483647"; // an int: up to 2 GiB
}
