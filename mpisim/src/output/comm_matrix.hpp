// MPISIM_COMM_MATRIX: messages and bytes sent per (source, destination) rank pair, every
// message counted (those of collectives included), as CSV. MPISIM_MAP=auto reads it back
// (comm_graph.hpp).
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

  /// Writes "src,dst,messages,bytes" lines, one per pair that exchanged anything, and always the
  /// pair of the last of `ranks` ranks with itself (zeros if it sent itself nothing), so that the
  /// file gives the rank count (MPISIM_MAP=auto checks it).
  void write_csv(const std::string& path, int ranks) const;

private:
  std::map<std::pair<int, int>, Cell> cells_;
};

} // namespace mpisim
