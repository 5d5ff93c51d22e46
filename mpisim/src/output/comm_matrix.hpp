// MPISIM_COMM_MATRIX: messages and bytes sent per (source, destination) rank pair, every
// message counted (those of collectives included), as CSV.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace mpisim {

class CommMatrix {
public:
  struct Cell {
    std::uint64_t messages = 0;
    std::uint64_t bytes = 0;
  };

  void add(int src, int dst, std::uint64_t bytes) {
    Cell& c = cells_[{src, dst}];
    ++c.messages;
    c.bytes += bytes;
  }
  const std::map<std::pair<int, int>, Cell>& cells() const { return cells_; }

  /// The matrix as text, for sending to host 0; merge() adds such a text in.
  std::string encode() const;
  void merge(const std::string& encoded);

  /// Writes "src,dst,messages,bytes" lines, one per pair that exchanged anything.
  void write_csv(const std::string& path) const;

private:
  std::map<std::pair<int, int>, Cell> cells_;
};

} // namespace mpisim
