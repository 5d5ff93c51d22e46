#include "window.hpp"

#include "handle_table.hpp"

namespace mpilite {
namespace {

HandleTable<Window>& table() {
  static HandleTable<Window> windows{0xa0000000u};
  return windows;
}

} // namespace

Window* find_window(MPI_Win handle) {
  return table().find(handle);
}

MPI_Win add_window(Window w) {
  const MPI_Win h = table().add(std::move(w));
  table().find(h)->handle = h;
  return h;
}

void erase_window(MPI_Win handle) {
  table().erase(handle);
}

} // namespace mpilite
