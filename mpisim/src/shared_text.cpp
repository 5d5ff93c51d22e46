#include "shared_text.hpp"

#include <elf.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace mpisim {

bool write_image(int fd, const void* image, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(image);
  while (size > 0) {
    const ssize_t w = write(fd, p, size);
    if (w <= 0) return false;
    p += w;
    size -= static_cast<std::size_t>(w);
  }
  return true;
}

namespace {

/// The image's program headers, or null when it is not a 64-bit ELF object they fit in.
const Elf64_Phdr* program_headers(const unsigned char* image, std::size_t size, std::size_t& n) {
  if (size < sizeof(Elf64_Ehdr) || std::memcmp(image, ELFMAG, SELFMAG) != 0 ||
      image[EI_CLASS] != ELFCLASS64)
    return nullptr;
  Elf64_Ehdr eh;
  std::memcpy(&eh, image, sizeof eh);
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
      (size - eh.e_phoff) / sizeof(Elf64_Phdr) < eh.e_phnum)
    return nullptr;
  n = eh.e_phnum;
  return reinterpret_cast<const Elf64_Phdr*>(image + eh.e_phoff);
}

/// Whether the loader writes into the image's code (text relocations): then no two copies are
/// the same.
bool has_text_relocations(const unsigned char* image, std::size_t size) {
  std::size_t n = 0;
  const Elf64_Phdr* ph = program_headers(image, size, n);
  if (!ph) return true;
  for (std::size_t i = 0; i < n; ++i) {
    if (ph[i].p_type != PT_DYNAMIC) continue;
    if (ph[i].p_offset > size || size - ph[i].p_offset < ph[i].p_filesz) return true;
    const auto* d = reinterpret_cast<const Elf64_Dyn*>(image + ph[i].p_offset);
    for (std::size_t k = 0; k < ph[i].p_filesz / sizeof(Elf64_Dyn) && d[k].d_tag != DT_NULL; ++k)
      if (d[k].d_tag == DT_TEXTREL || (d[k].d_tag == DT_FLAGS && (d[k].d_un.d_val & DF_TEXTREL)))
        return true;
  }
  return false;
}

} // namespace

SharedText::SharedText(const void* image, std::size_t size)
    : image_(static_cast<const unsigned char*>(image)), size_(size) {
  if (has_text_relocations(image_, size_)) return;
  const int fd = memfd_create("mpisim-program", MFD_CLOEXEC);
  if (fd < 0) return;
  if (!write_image(fd, image_, size_)) {
    close(fd);
    return;
  }
  fd_ = fd;
}

SharedText::~SharedText() {
  if (fd_ >= 0) close(fd_);
}

std::string SharedText::share(std::size_t base) const {
  if (fd_ < 0) return "no shared copy of the program";
  std::size_t n = 0;
  const Elf64_Phdr* ph = program_headers(image_, size_, n);
  if (!ph) return "not an ELF image";
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  for (std::size_t i = 0; i < n; ++i) {
    const Elf64_Phdr& p = ph[i];
    // Writable segments are the rank's own; a read-only one that grows in memory would have a
    // part the file does not hold.
    if (p.p_type != PT_LOAD || (p.p_flags & PF_W) || p.p_memsz != p.p_filesz || p.p_filesz == 0)
      continue;
    const std::size_t start = base + p.p_vaddr;
    const std::size_t first = start & ~(page - 1);
    const std::size_t offset = p.p_offset - (start - first);
    const std::size_t length = ((start + p.p_filesz + page - 1) & ~(page - 1)) - first;
    const int prot = PROT_READ | (p.p_flags & PF_X ? PROT_EXEC : 0);
    // Mapped elsewhere first, then moved over the copy's pages in one step: a failure leaves
    // the copy's own pages in place. The system call itself, not libc's mremap: MPICH's UCX
    // replaces that with a version that drops the new address (a moved mapping landed anywhere).
    void* shared = mmap(nullptr, length, prot, MAP_PRIVATE, fd_, static_cast<off_t>(offset));
    if (shared == MAP_FAILED) return fmt::format("mmap: {}", std::strerror(errno));
    if (reinterpret_cast<void*>(syscall(SYS_mremap, shared, length, length,
                                        MREMAP_MAYMOVE | MREMAP_FIXED, first)) == MAP_FAILED) {
      const int e = errno;
      munmap(shared, length);
      return fmt::format("mremap: {}", std::strerror(e));
    }
  }
  return {};
}

} // namespace mpisim
