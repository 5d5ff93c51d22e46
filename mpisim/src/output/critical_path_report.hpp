// The critical path's part of the report (MPISIM_CRITICAL_PATH, docs/observing.md): the JSON key
// `critical_path` and its text section.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "simulation.hpp"

namespace mpisim {

/// Contributions named in the report, largest first: calls and ranks.
inline constexpr std::size_t kCriticalPathShown = 10;

/// `critical_path` of the JSON report: null when the option is off.
nlohmann::json critical_path_json(const std::optional<CriticalPath>& path);

/// The text section of a report's `critical_path` (nothing when it is null).
void render_critical_path(std::string& out, const nlohmann::json& report);

} // namespace mpisim
