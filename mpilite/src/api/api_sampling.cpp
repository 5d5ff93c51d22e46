// MPISIM_SAMPLE_LOCAL / MPISIM_SAMPLE_GLOBAL (mpisim.h): both ends of a sampled body are calls,
// so that the compute before them is charged first and the body's duration is the difference
// of the rank's clock, whatever charged it (measured CPU time or MPISIM_Compute).
#include <cmath>

#include "api_call.hpp"
#include "api_compute.hpp"
#include "mpisim.h"

using namespace mpilite;

extern "C" {

int MPISIM_Sample_begin(const char* file, int line, int global, int iterations, double threshold) {
  ApiCall c("MPISIM_Sample");
  if (iterations < 1 || !(threshold >= 0) || std::isinf(threshold)) {
    c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
            "MPISIM_SAMPLE_{} at {}:{}: iterations must be >= 1 and threshold a number >= 0 "
            "(got {} and {})",
            global ? "GLOBAL" : "LOCAL", file, line, iterations, threshold);
    return 1; // with errors returned, the body runs unsampled
  }
  SampleSites& sites = c.w.sample_sites;
  SampleSites::Site& site = sites.site(file, line, global != 0, iterations, threshold);
  SampleStats& stats = site.stats_of(c.r.id);
  if (sites.enabled && stats.enough(site.iterations, site.threshold)) {
    ++stats.skipped;
    charge_compute(stats.mean());
    return 0;
  }
  sites.open(c.r.id, site, c.r.clock);
  return 1;
}

int MPISIM_Sample_end(const char* file, int line) {
  ApiCall c("MPISIM_Sample");
  SampleSites& sites = c.w.sample_sites;
  SampleSites::Site* site = sites.find(file, line);
  const SimTime start = site ? sites.close(c.r.id, *site) : -1;
  if (start < 0) {
    c.error(MPI_COMM_WORLD, MPI_ERR_OTHER,
            "MPISIM_Sample_end at {}:{} without its MPISIM_Sample_begin (use the "
            "MPISIM_SAMPLE_LOCAL / MPISIM_SAMPLE_GLOBAL macros)",
            file, line);
    return 0;
  }
  site->stats_of(c.r.id).add(c.r.clock - start);
  return 0;
}

} // extern "C"
