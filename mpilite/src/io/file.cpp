#include "file.hpp"

#include "host_file.hpp"

namespace mpilite {

int write_view(const File& f, std::size_t at, const std::byte* data, std::size_t n) {
  int err = 0;
  for_each_run(*f.filetype, at, n, [&](MPI_Aint offset, std::size_t len) {
    if (!err) err = write_at(f.fd, data, len, f.disp + offset);
    data += len;
  });
  return err;
}

int read_view(const File& f, std::size_t at, std::byte* data, std::size_t n, std::size_t& got) {
  int err = 0;
  bool at_end = false;
  got = 0;
  for_each_run(*f.filetype, at, n, [&](MPI_Aint offset, std::size_t len) {
    if (err || at_end) return;
    std::size_t k = 0;
    err = read_at(f.fd, data + got, len, f.disp + offset, k);
    got += k;
    at_end = k < len;
  });
  return err;
}

MPI_Offset file_offset(const File& f, std::size_t at) {
  MPI_Offset result = f.disp;
  bool first = true;
  // The first run of a one-byte stretch starts exactly at that byte.
  for_each_run(*f.filetype, at, 1, [&](MPI_Aint offset, std::size_t) {
    if (first) result = f.disp + offset;
    first = false;
  });
  return result;
}

} // namespace mpilite
