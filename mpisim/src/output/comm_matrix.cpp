#include "comm_matrix.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace mpisim {

std::string CommMatrix::encode() const {
  std::string out;
  for (const auto& [pair, c] : cells_)
    out += fmt::format("{} {} {} {}\n", pair.first, pair.second, c.messages, c.bytes);
  return out;
}

void CommMatrix::merge(const std::string& encoded) {
  std::istringstream in(encoded);
  int src, dst;
  std::uint64_t messages, bytes;
  while (in >> src >> dst >> messages >> bytes) {
    Cell& c = cells_[{src, dst}];
    c.messages += messages;
    c.bytes += bytes;
  }
}

void CommMatrix::write_csv(const std::string& path, int ranks) const {
  std::ofstream out(path);
  out << "src,dst,messages,bytes\n";
  for (const auto& [pair, c] : cells_)
    out << fmt::format("{},{},{},{}\n", pair.first, pair.second, c.messages, c.bytes);
  // The largest pair, hence last when present: the row that gives the rank count.
  if (!cells_.contains({ranks - 1, ranks - 1})) out << fmt::format("{0},{0},0,0\n", ranks - 1);
  if (!out)
    throw std::runtime_error(fmt::format("cannot write the communication matrix to {}", path));
}

} // namespace mpisim
