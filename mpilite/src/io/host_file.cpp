#include "host_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <climits>
#include <string_view>

namespace mpilite {
namespace {

bool stand_ins = false;
/// The descriptor of every stand-in file: no host file has it.
constexpr int kStandInFd = INT_MAX;
constexpr std::string_view kFailingPrefix = "(stand-in file failing with errno ";

} // namespace

void use_stand_in_files() {
  stand_ins = true;
}

bool stand_in_files() {
  return stand_ins;
}

std::string stand_in_path(int err) {
  return err == 0 ? "(stand-in file)" : std::string(kFailingPrefix) + std::to_string(err) + ")";
}

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
  if (stand_ins) {
    int err = 0;
    if (path.starts_with(kFailingPrefix))
      std::from_chars(path.data() + kFailingPrefix.size(), path.data() + path.size(), err);
    return err > 0 ? -err : kStandInFd;
  }
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

void close_host_file(int fd) {
  if (fd != kStandInFd) ::close(fd);
}

int delete_host_file(const std::string& path) {
  if (stand_ins) return 0;
  return ::unlink(path.c_str()) == 0 ? 0 : errno;
}

int host_file_size(int fd, MPI_Offset& size) {
  size = 0;
  if (fd == kStandInFd) return 0;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return errno;
  size = st.st_size;
  return 0;
}

int resize_host_file(int fd, MPI_Offset size) {
  if (fd == kStandInFd) return 0;
  return ::ftruncate(fd, static_cast<off_t>(size)) == 0 ? 0 : errno;
}

int write_at(int fd, const void* data, std::size_t n, MPI_Offset offset) {
  if (fd == kStandInFd) return 0;
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
  if (fd == kStandInFd) {
    got = n;
    return 0;
  }
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
