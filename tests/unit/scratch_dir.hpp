// A fresh folder per test for the files a test writes (traces, matrices, records).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace test {

/// An empty folder "mpisim_<suite>_<name>_<pid>" in the temporary folder (emptied if it existed).
inline std::string scratch_dir(const std::string& suite, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mpisim_" + suite + "_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

} // namespace test
