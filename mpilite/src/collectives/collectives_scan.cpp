// MPI_Scan and MPI_Exscan: recursive doubling, keeping rank order for non-commutative ops.
#include "collectives.hpp"

namespace mpilite {
namespace {

/// Both scans: `partial` accumulates the reduction over this rank's current subtree (all ranks
/// [me & ~(2^k - 1), ...) seen so far), and what comes from lower ranks goes into the result.
/// `inclusive`: the result starts as this rank's own input; otherwise (Exscan) as the first
/// contribution from below, and rank 0's result is left alone.
CollTask scan_doubling(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                       const Datatype& type, bool inclusive) {
  const int p = s.size(), me = s.rank();
  if (count == 0) co_return;
  const bool commutative = s.op().commutative;
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  void* partial = s.scratch(count, type);
  void* incoming = s.scratch(count, type);
  copy_elements(input, partial, count, type);
  if (inclusive && sendbuf != MPI_IN_PLACE) copy_elements(sendbuf, recvbuf, count, type);
  bool have_result = inclusive;
  for (int mask = 1; mask < p; mask <<= 1) {
    const int dst = me ^ mask;
    if (dst >= p) continue;
    co_await s.exchange(partial, count, type, dst, incoming, count, type, dst);
    if (me > dst) { // incoming: ranks below
      s.reduce(incoming, partial, count, type);
      if (have_result) {
        s.reduce(incoming, recvbuf, count, type);
      } else {
        copy_elements(incoming, recvbuf, count, type);
        have_result = true;
      }
    } else if (commutative) {
      s.reduce(incoming, partial, count, type);
    } else {
      s.reduce(partial, incoming, count, type);
      copy_elements(incoming, partial, count, type);
    }
  }
}

} // namespace

CollTask build_scan(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                    const Datatype& type) {
  return scan_doubling(s, sendbuf, recvbuf, count, s.keep(type), true);
}

CollTask build_exscan(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                      const Datatype& type) {
  return scan_doubling(s, sendbuf, recvbuf, count, s.keep(type), false);
}

} // namespace mpilite
