#include "output_paths.hpp"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

namespace mpisim {
namespace {

namespace fs = std::filesystem;

void check_file(const char* variable, const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw ConfigError(fmt::format("{}={} is a folder; give the path of a file in it, e.g. {}",
                                  variable, path, (fs::path(path) / "out").string()));
  const fs::path folder = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : ".";
  if (!fs::is_directory(folder, ec))
    throw ConfigError(fmt::format("{}={}: the folder {} does not exist; create it or choose "
                                  "another path",
                                  variable, path, folder.string()));
  const bool exists = fs::exists(path, ec);
  if (access(exists ? path.c_str() : folder.c_str(), exists ? W_OK : W_OK | X_OK) != 0)
    throw ConfigError(fmt::format("{}={}: {} cannot be written (permission denied); choose a "
                                  "writable path",
                                  variable, path, exists ? "the file" : "its folder"));
}

void check_folder(const char* variable, const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_directory(path, ec))
    throw ConfigError(fmt::format("{}={} is a file, not a folder; give a folder path (it is "
                                  "created if missing)",
                                  variable, path));
  fs::create_directories(path, ec);
  if (ec || access(path.c_str(), W_OK | X_OK) != 0)
    throw ConfigError(fmt::format("{}={}: the folder cannot be {} ({}); choose a writable path",
                                  variable, path, ec ? "created" : "written",
                                  ec ? ec.message() : "permission denied"));
}

} // namespace

void check_output_paths(const Config& config) {
  check_file("MPISIM_REPORT", config.report_path);
  check_file("MPISIM_TRACE", config.trace_path);
  check_file("MPISIM_COMM_MATRIX", config.comm_matrix_path);
  check_folder("MPISIM_RECORD", config.record_path);
}

} // namespace mpisim
