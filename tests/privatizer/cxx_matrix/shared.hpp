// Declarations shared by the files of the C++ privatization matrix.
#pragma once

#include <string>
#include <vector>

namespace matrix {

extern int counter; // defined in main.cpp, used in other.cpp

/// Counts its constructions and destructions in privatized counters.
struct Tracked {
  Tracked();
  ~Tracked();
  int value;
};
extern int constructions;
extern int destructions;
extern Tracked tracked; // namespace-scope object with a constructor and destructor

struct Registry {
  static int instances;            // static data member
  static std::vector<int> history; // ... of a non-trivial type
  static inline int inline_member = 9;
};

inline int inline_variable = 3; // C++17 inline variable, defined in every file

template <class T> struct Box {
  static T value; // static member of a class template
};
template <class T> T Box<T>::value = T(1);

/// A static local in a function template: one per instantiation and per rank.
template <class T> int calls() {
  static int n = 0;
  return ++n;
}

/// A non-trivial function-local static, built on first use in each rank.
inline const std::string& label(int rank) {
  static std::string s = "rank-" + std::to_string(rank);
  return s;
}

int other_file_reads(int rank);
void other_file_writes(int rank);

} // namespace matrix
