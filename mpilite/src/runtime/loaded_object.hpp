// Finding the loaded object (the executable or a shared library) that holds a function, for the
// interposers that need a library's own data: libgomp's thread-local block, libgfortran's seed.
#pragma once

#include <link.h>

#include <optional>

namespace mpilite {

/// The loaded object whose segments hold `code`, as dl_iterate_phdr describes it to the calling
/// thread (dlpi_tls_data is that thread's block); nullopt if none does. Its program headers stay
/// valid while the object is loaded.
std::optional<dl_phdr_info> object_holding(const void* code);

} // namespace mpilite
