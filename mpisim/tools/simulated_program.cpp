#include "simulated_program.hpp"

#include <elf.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "runtime_note.hpp"

namespace mpisim::tools {
namespace {

/// Where execvp would find `program`, or "".
std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

template <typename T> bool read_at(std::ifstream& in, std::uint64_t offset, T& out) {
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(reinterpret_cast<char*>(&out), sizeof out);
  return static_cast<bool>(in);
}

/// True if a PT_NOTE segment of the ELF64 file holds mpisim's runtime note.
bool has_runtime_note(std::ifstream& in) {
  Elf64_Ehdr eh;
  if (!read_at(in, 0, eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_phentsize != sizeof(Elf64_Phdr))
    return false;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    if (!read_at(in, eh.e_phoff + i * sizeof ph, ph)) return false;
    if (ph.p_type != PT_NOTE || ph.p_filesz > (1u << 20)) continue;
    std::vector<char> notes(ph.p_filesz);
    in.seekg(static_cast<std::streamoff>(ph.p_offset));
    if (!in.read(notes.data(), static_cast<std::streamsize>(notes.size()))) return false;
    const std::size_t align = ph.p_align == 8 ? 8 : 4;
    const auto pad = [align](std::size_t n) { return (n + align - 1) / align * align; };
    for (std::size_t at = 0; at + sizeof(Elf64_Nhdr) <= notes.size();) {
      Elf64_Nhdr nh;
      std::memcpy(&nh, notes.data() + at, sizeof nh);
      const std::size_t name = at + sizeof nh;
      if (name + nh.n_namesz > notes.size()) break;
      if (nh.n_type == kRuntimeNoteType && nh.n_namesz == sizeof kRuntimeNoteName &&
          std::memcmp(notes.data() + name, kRuntimeNoteName, sizeof kRuntimeNoteName) == 0)
        return true;
      at = name + pad(nh.n_namesz) + pad(nh.n_descsz);
    }
  }
  return false;
}

} // namespace

std::string why_not_simulated(const std::string& program) {
  const std::string path = find_program(program);
  std::ifstream in(path, std::ios::binary);
  char magic[SELFMAG] = {};
  if (path.empty() || !in || !in.read(magic, sizeof magic)) return "";
  if (magic[0] == '#' && magic[1] == '!') return "";
  const std::string fix = "; build it with mpisimcc (mpisimcxx for C++, mpisimfort for Fortran)";
  if (std::memcmp(magic, ELFMAG, SELFMAG) != 0)
    return program + " is neither an executable built with mpisim nor a script" + fix;
  if (!has_runtime_note(in))
    return program +
           " was not built with mpisim (built with gcc, or with another MPI's mpicc?): "
           "it has no simulator in it and would run unsimulated" +
           fix;
  return "";
}

} // namespace mpisim::tools
