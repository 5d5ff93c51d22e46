// The C library's host name, as a rank's program sees it: the name of the rank's node of the
// simulated machine (node_name.hpp). Codes written before MPI_COMM_TYPE_SHARED find their node's
// ranks by comparing gethostname() (hashing it into a color for MPI_Comm_split), and pick a
// device or a node leader from it: left to the C library, every rank of every host process was
// on one node, and such a code ran its node-local pattern across the whole machine.
//
// Only the program's own calls see it: those from a rank's fiber, outside MPI calls (the
// simulator's and the transport's see the host's name).
#include <errno.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "interposed.hpp"
#include "node_name.hpp"

extern "C" int gethostname(char* name, size_t len) noexcept {
  static const auto libc_gethostname = mpilite::next_symbol<int (*)(char*, size_t)>("gethostname");
  if (!mpilite::programs_world()) return libc_gethostname(name, len);
  const std::string node = mpilite::node_name("gethostname");
  // As glibc: the name cut to `len` bytes, and ENAMETOOLONG when it (with its end) does not fit.
  std::strncpy(name, node.c_str(), len);
  if (node.size() + 1 > len) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return 0;
}

extern "C" int uname(struct utsname* u) noexcept {
  static const auto libc_uname = mpilite::next_symbol<int (*)(struct utsname*)>("uname");
  const int done = libc_uname(u);
  if (done != 0 || !mpilite::programs_world()) return done;
  const std::string node = mpilite::node_name("uname");
  std::snprintf(u->nodename, sizeof u->nodename, "%s", node.c_str());
  return 0;
}
