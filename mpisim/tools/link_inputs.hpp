// The link step's inputs that did not come from the wrapper: objects and archives compiled with
// plain cc or with another MPI's mpicc would share their globals between the simulated ranks or
// call that MPI instead of the simulator. The wrapper finds them with nm and refuses the link.
#pragma once

#include <string>
#include <vector>

namespace wrapper {

/// The files among the link arguments (in order) that are the user's: objects, archives and
/// shared objects named by path, and -l libraries found in a -L directory of the command line
/// (not those of the system's directories). Files under `own_dir` (mpisim's libraries) are
/// left out.
std::vector<std::string> user_link_inputs(const std::vector<std::string>& link_args,
                                          const std::string& own_dir);

struct LinkCheck {
  std::string tool; ///< mpisimcc or mpisimcxx, for messages
  std::string nm;   ///< the nm program
  bool shared_ok;   ///< -mpisim-shared-ok: writable data of foreign objects is shared on purpose
  /// mpisimfort: every rank loads its own copy of the program's objects and archives, so only
  /// shared objects' data is shared.
  bool shared_objects_only = false;
};

/// One input file, and how messages name it (the source for an object compiled by the wrapper).
struct LinkInput {
  std::string path;
  std::string shown;
};

/// One message per object of `files` (relocatable ELF objects, archive members and shared
/// objects; other files are skipped) that references an MPI function mpisim's mpi.h does not
/// provide, or, not built by the wrapper, defines writable data: a shared object is loaded once
/// per host process whoever built it, so the user's own (not under /usr or /lib) count too.
/// Empty when the link may go ahead.
std::vector<std::string> check_link_inputs(const std::vector<LinkInput>& files,
                                           const LinkCheck& how);

} // namespace wrapper
