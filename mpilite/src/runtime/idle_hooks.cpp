#include "idle_hooks.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace mpilite {
namespace {

using Hooks = std::vector<std::pair<void*, bool (*)(void*)>>;

Hooks& hooks() {
  // Never destroyed: objects destroyed at exit may still remove their hooks.
  static auto* list = new Hooks;
  return *list;
}

} // namespace

void add_idle_hook(void* key, bool (*fn)(void*)) {
  hooks().emplace_back(key, fn);
}

void remove_idle_hook(void* key) {
  std::erase_if(hooks(), [&](const auto& h) { return h.first == key; });
}

bool run_idle_hooks() {
  bool did = false;
  // By index: a hook may register or remove hooks.
  for (std::size_t i = 0; i < hooks().size(); ++i)
    did = hooks()[i].second(hooks()[i].first) || did;
  return did;
}

bool no_idle_hooks() {
  return hooks().empty();
}

void clear_idle_hooks() {
  hooks().clear();
}

} // namespace mpilite
