// Compute sampling (MPISIM_SAMPLE_LOCAL / MPISIM_SAMPLE_GLOBAL of mpisim.h): the samples of each
// call site, per rank or shared by the host process's ranks, and when a site has enough of them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim_time.hpp"

namespace mpilite {

/// Samples of simulated durations, summed exactly (integers), so that summaries gathered from
/// several host processes add up to the same figures in any order.
///
/// The first sample is a warm-up, left out of the mean, the deviation and the threshold test,
/// when it took more than twice the mean of the later ones: a body's first execution often
/// touches its arrays for the first time (page faults, cold caches), and charging every skipped
/// body part of that would predict the loop several times too slow.
struct SampleStats {
  std::uint64_t count = 0;   ///< samples taken (bodies run and measured)
  std::uint64_t skipped = 0; ///< bodies skipped and charged the mean
  SimTime sum = 0;
  unsigned __int128 sum_squares = 0;
  SimTime first = -1; ///< the first sample, while these are one rank's (or one site's) samples
  /// Warm-ups left out by the stats merged into these (summaries over ranks and hosts).
  std::uint64_t warmups = 0;
  SimTime warmup_sum = 0;
  unsigned __int128 warmup_squares = 0;

  void add(SimTime t);
  void merge(const SampleStats& o);
  /// Whether `first` is left out as a warm-up.
  bool first_is_warmup() const;
  /// The mean of the samples after warm-ups, rounded to the nearest picosecond (what a skipped
  /// body is charged).
  SimTime mean() const;
  /// Population standard deviation of the samples after warm-ups (ps).
  double stddev() const;
  /// Enough samples: `iterations` of them (warm-up included), or at least 2 after warm-ups
  /// with stddev / mean below `threshold`.
  bool enough(int iterations, double threshold) const;

private:
  struct Steady {
    std::uint64_t n;
    SimTime sum;
    unsigned __int128 squares;
  };
  Steady steady() const;
};

/// One call site, as the report shows it.
struct SampleSiteSummary {
  std::string site; ///< "file:line"
  bool global = false;
  int iterations = 0;
  double threshold = 0;
  SampleStats stats; ///< over all ranks
};

class SampleSites {
public:
  /// MPISIM_SAMPLING: when off, every body runs (and is still measured).
  bool enabled = true;

  struct Site {
    std::string name;
    bool global = false;
    int iterations = 0;
    double threshold = 0;
    SampleStats shared;                         ///< global sites
    std::unordered_map<int, SampleStats> ranks; ///< local sites, by world rank
    SampleStats& stats_of(int rank) { return global ? shared : ranks[rank]; }
  };

  /// The site at (file, line), created with these parameters on first use. A negative line names
  /// the site by `file` alone (Fortran's form: the calling function and offset).
  Site& site(const char* file, int line, bool global, int iterations, double threshold);
  /// The site at (file, line), or nullptr when no MPISIM_Sample_begin named it.
  Site* find(const char* file, int line);

  /// A body that runs as a sample: opened by rank `rank` at its clock `start`.
  void open(int rank, Site& s, SimTime start) { open_[rank].push_back({&s, start}); }
  /// Ends the innermost open body of `rank` at `s` (dropping bodies left by break or return
  /// above it). Returns its start time, or -1 when none is open.
  SimTime close(int rank, const Site& s);
  /// Whether the innermost body `rank` has open is at `s`.
  bool innermost_is(int rank, const Site& s) const;

  /// Every site, merged over ranks, in (file, line) order.
  std::vector<SampleSiteSummary> summaries() const;

private:
  struct Open {
    Site* site;
    SimTime start;
  };
  std::map<std::pair<std::string, int>, Site> sites_;
  std::unordered_map<int, std::vector<Open>> open_;
};

/// Adds `from` into `into`, merging sites of the same name (summaries of several hosts).
void merge_sample_summaries(std::vector<SampleSiteSummary>& into,
                            const std::vector<SampleSiteSummary>& from);

} // namespace mpilite
