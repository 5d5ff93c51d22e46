#include "host_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace mpilite {

int file_error_class(int err) {
  switch (err) {
  case ENOENT:
  case ENOTDIR:
    return MPI_ERR_NO_SUCH_FILE;
  case EACCES:
  case EPERM:
    return MPI_ERR_ACCESS;
  case EEXIST:
    return MPI_ERR_FILE_EXISTS;
  case EROFS:
    return MPI_ERR_READ_ONLY;
  case ENOSPC:
    return MPI_ERR_NO_SPACE;
  case EDQUOT:
    return MPI_ERR_QUOTA;
  case ENAMETOOLONG:
  case EISDIR:
    return MPI_ERR_BAD_FILE;
  default:
    return MPI_ERR_IO;
  }
}

int open_host_file(const std::string& path, int amode) {
  int flags = O_CLOEXEC;
  if (amode & MPI_MODE_RDWR)
    flags |= O_RDWR;
  else if (amode & MPI_MODE_WRONLY)
    flags |= O_WRONLY;
  else
    flags |= O_RDONLY;
  if (amode & MPI_MODE_CREATE) flags |= O_CREAT;
  if (amode & MPI_MODE_EXCL) flags |= O_EXCL;
  const int fd = ::open(path.c_str(), flags, 0666);
  return fd >= 0 ? fd : -errno;
}

int write_at(int fd, const void* data, std::size_t n, MPI_Offset offset) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t k = ::pwrite(fd, p, n, static_cast<off_t>(offset));
    if (k < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += k;
    n -= static_cast<std::size_t>(k);
    offset += k;
  }
  return 0;
}

int read_at(int fd, void* data, std::size_t n, MPI_Offset offset, std::size_t& got) {
  auto* p = static_cast<char*>(data);
  got = 0;
  while (n > 0) {
    const ssize_t k = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (k < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (k == 0) break; // end of file
    p += k;
    n -= static_cast<std::size_t>(k);
    offset += k;
    got += static_cast<std::size_t>(k);
  }
  return 0;
}

} // namespace mpilite
