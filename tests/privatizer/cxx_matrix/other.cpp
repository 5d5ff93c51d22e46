// The second file: uses globals of main.cpp and the header's inline entities.
#include "shared.hpp"

namespace matrix {

namespace {
int hidden = 0; // anonymous namespace, also in main.cpp under the same name
}

void other_file_writes(int rank) {
  counter = rank;
  hidden = rank + 50;
  inline_variable += rank;
  Box<long>::value = rank;
  calls<char>();
}

int other_file_reads(int rank) {
  int bad = 0;
  bad += counter != rank;
  bad += hidden != rank + 50;
  bad += inline_variable != 3 + rank;
  bad += Box<long>::value != rank;
  bad += calls<char>() != 2;
  return bad;
}

} // namespace matrix
