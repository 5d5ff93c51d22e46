// The C++ standard streams' format state switched with the fiber (libc_state.hpp,
// StreamFormats). Only the format (flags, precision, width, fill) is per rank: the buffers stay
// the process's, as stdout does, so output from every rank keeps its order. The error state,
// the locale, the exception mask, tie() and the wide streams stay per host process
// (docs/privatization.md). Only programs that name the streams pay for the switch
// (mpisim_priv_uses_streams).
#pragma once

#include <iostream>

#include "libc_state.hpp"

namespace mpilite {

/// The standard streams' std::ios, found once per run: reaching it from a std::ostream reads
/// the virtual base's offset from the stream's vtable, which every switch would pay otherwise.
struct StandardStreams {
  std::ios* out = nullptr;
  std::ios* err = nullptr;
  std::ios* log = nullptr;
  static StandardStreams find() { return {&std::cout, &std::cerr, &std::clog}; }
};

inline void save_format(StreamFormat& f, const std::ios& s) {
  f.flags = static_cast<unsigned>(s.flags());
  f.precision = static_cast<long>(s.precision());
  f.width = static_cast<long>(s.width());
  f.fill = s.fill();
}

inline void load_format(const StreamFormat& f, std::ios& s) {
  s.flags(static_cast<std::ios_base::fmtflags>(f.flags));
  s.precision(f.precision);
  s.width(f.width);
  s.fill(f.fill);
}

inline void save_streams(StreamFormats& f, const StandardStreams& s) {
  save_format(f.out, *s.out);
  save_format(f.err, *s.err);
  save_format(f.log, *s.log);
  f.fresh = false;
}

/// A rank never switched out gets what a new process has: dec and skipws, precision 6, width 0,
/// a space for fill; std::cerr also unitbuf, as the standard sets it.
inline void load_streams(const StreamFormats& f, const StandardStreams& s) {
  if (!f.fresh) {
    load_format(f.out, *s.out);
    load_format(f.err, *s.err);
    load_format(f.log, *s.log);
    return;
  }
  constexpr auto kFresh = std::ios_base::skipws | std::ios_base::dec;
  const StreamFormat fresh{static_cast<unsigned>(kFresh), 6, 0, ' '};
  load_format(fresh, *s.out);
  load_format({static_cast<unsigned>(kFresh | std::ios_base::unitbuf), 6, 0, ' '}, *s.err);
  load_format(fresh, *s.log);
}

} // namespace mpilite
