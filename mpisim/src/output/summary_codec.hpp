// A host process's part of a run summary, as bytes for gathering at host 0.
#pragma once

#include <cstddef>
#include <vector>

#include "simulation.hpp"

namespace mpisim {

std::vector<std::byte> encode_host_part(const RunSummary& s, const HostSummary& host);
/// Appends the decoded part to `into` (ranks, blocked lines, host statistics, message counts).
void decode_host_part(const std::vector<std::byte>& bytes, RunSummary& into);

} // namespace mpisim
