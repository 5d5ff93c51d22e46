// The report at the end of a simulation: built once as JSON (MPISIM_REPORT writes it as is)
// and rendered as text on stderr.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "config.hpp"
#include "simulation.hpp"

namespace mpisim {

/// Largest number of ranks shown one per line in the text report; above it, a summary table.
inline constexpr std::size_t kRanksShownInFull = 16;

/// How many ranks the text report names among those that failed or skipped MPI_Finalize.
inline constexpr std::size_t kRanksNamed = 10;

/// The report as JSON. `ranks`, an object per rank, is there only when the text shows ranks one
/// per line (up to kTimelineMaxRanks ranks; else null); the summaries (`rank_summary`) cover all
/// ranks either way.
nlohmann::json build_report(const Config& config, const RunSummary& run);

/// Writes `report` (from build_report) to `out` with `ranks` listing every rank of `run`, one
/// line each, made and written one at a time: as JSON values, millions of ranks' objects would
/// cost gigabytes.
void write_report(std::ostream& out, const nlohmann::json& report, const RunSummary& run);

/// The name reports and recordings give the end of a run: "finished", "deadlock", "abort",
/// "error" or "limit" ("?" for the values the world never ends a run with).
const char* outcome_name(mpilite::RunEnd end);

/// The human-readable form of a report made by build_report.
std::string render_report(const nlohmann::json& report);

} // namespace mpisim
