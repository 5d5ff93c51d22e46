// Writes the rewritten translation unit: every user file (the source and its own headers)
// under <out>/<absolute path of the file>, so that quoted includes find the rewritten
// headers next to the rewritten source. Each file starts with #line naming the original, so
// compiler messages and debug information point to the user's file and line.
#pragma once

#include <clang/Rewrite/Core/Rewriter.h>

#include <string>

#include "rewrite.hpp"

namespace privatizer {

/// Returns false (after a message) when a file cannot be written.
bool write_mirror(const clang::SourceManager& sm, clang::Rewriter& rw, const Rewritten& done,
                  const std::string& out_dir);

/// Completes the mirror of the include folder `dir`: every entry of `dir` that the mirror lacks
/// becomes a link to the original (into subfolders that hold rewritten files too). The compiler
/// then searches the mirror instead of `dir`, so a rewritten header's #include_next goes on past
/// the folder rather than into the header's original, which its include guard would leave empty.
/// Returns false (after a message) when a link cannot be made.
bool complete_mirror(const std::string& out_dir, const std::string& dir);

/// Where the mirror of `path` lives under `out_dir`.
std::string mirror_path(const std::string& out_dir, const std::string& path);

} // namespace privatizer
