// Error classes, codes and strings the program adds (MPI-3.1 section 8.5): local to the rank that
// adds them, as to an MPI process, numbered above MPI_ERR_LASTCODE in the order added.
#pragma once

#include <string>

namespace mpilite {

/// A class or code the program added.
struct UserError {
  int error_class; ///< itself, for a class
  std::string text;
};

/// MPI_Add_error_class: the rank's new class.
int add_error_class(int rank);
/// MPI_Add_error_code: the rank's new code of class `error_class` (a predefined class or one the
/// rank added; the caller checks).
int add_error_code(int rank, int error_class);
/// The class or code `code` that rank `rank` added, or null.
UserError* find_user_error(int rank, int code);
/// The value of MPI_LASTUSEDCODE for the rank: its largest added code, or MPI_ERR_LASTCODE.
int* last_used_code(int rank);

} // namespace mpilite
