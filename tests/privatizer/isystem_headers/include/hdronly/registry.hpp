// A header-only library as CMake hands it over for an imported target (-isystem): a Meyers
// singleton, an inline variable, a static local of an inline function.
#pragma once
#include <map>
#include <string>

namespace hdronly {
class Registry {
public:
  static Registry& instance() {
    static Registry r;
    return r;
  }
  void set(const std::string& k, int v) { m_[k] = v; }
  int get(const std::string& k) const {
    auto it = m_.find(k);
    return it == m_.end() ? -1 : it->second;
  }

private:
  std::map<std::string, int> m_;
};
inline int global_level = 0;
inline int next_handle() {
  static int h = 0;
  return ++h;
}
// Still a system header for the compiler: -Wextra -Werror says nothing of the unused parameter.
inline int ignores(int unused) {
  return 0;
}
} // namespace hdronly
