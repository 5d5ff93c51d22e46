#include "object_info.hpp"

namespace mpilite {

void replace_info(MPI_Info& kept, MPI_Info info) {
  if (kept != MPI_INFO_NULL) PMPI_Info_free(&kept);
  if (info != MPI_INFO_NULL) PMPI_Info_dup(info, &kept);
}

int copy_info(MPI_Info kept, MPI_Info* out) {
  return kept == MPI_INFO_NULL ? PMPI_Info_create(out) : PMPI_Info_dup(kept, out);
}

} // namespace mpilite
