#include "loaded_object.hpp"

namespace mpilite {

std::optional<dl_phdr_info> object_holding(const void* code) {
  struct Find {
    ElfW(Addr) code;
    std::optional<dl_phdr_info> object;
  } find{reinterpret_cast<ElfW(Addr)>(code), std::nullopt};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* p) {
        Find& f = *static_cast<Find*>(p);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          const ElfW(Addr) start = info->dlpi_addr + ph.p_vaddr;
          if (ph.p_type == PT_LOAD && f.code >= start && f.code < start + ph.p_memsz) {
            f.object = *info;
            return 1;
          }
        }
        return 0;
      },
      &find);
  return find.object;
}

} // namespace mpilite
