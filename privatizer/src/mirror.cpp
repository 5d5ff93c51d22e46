#include "mirror.hpp"

#include <filesystem>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include "facts.hpp"
#include "quote.hpp"

namespace privatizer {

std::string mirror_path(const std::string& out_dir, const std::string& path) {
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, true);
  llvm::SmallString<256> out(out_dir);
  llvm::sys::path::append(out, abs.str());
  return std::string(out.str());
}

namespace {

bool link_missing(const std::filesystem::path& original, const std::filesystem::path& mirror) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(original, ec)) {
    const fs::path there = mirror / e.path().filename();
    if (fs::is_symlink(fs::symlink_status(there))) continue;
    if (!fs::exists(there)) {
      fs::create_symlink(e.path(), there, ec);
      if (ec) {
        llvm::errs() << "mpisim-privatize: cannot link " << there.string() << " to "
                     << e.path().string() << ": " << ec.message() << "\n";
        return false;
      }
    } else if (fs::is_directory(there) && e.is_directory() && !link_missing(e.path(), there)) {
      return false;
    }
  }
  return true;
}

} // namespace

bool complete_mirror(const std::string& out_dir, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return true; // the compiler ignores it too
  const fs::path original = fs::absolute(dir).lexically_normal();
  const fs::path mirror = mirror_path(out_dir, original.string());
  fs::create_directories(mirror, ec);
  return link_missing(original, mirror);
}

bool write_mirror(const clang::SourceManager& sm, clang::Rewriter& rw, const Rewritten& done,
                  const std::string& out_dir) {
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
    const clang::FileEntry* fe = it->first;
    const clang::FileID fid = sm.translateFile(fe);
    if (fid.isInvalid()) continue;
    if (!in_user_file(sm, sm.getLocForStartOfFile(fid))) continue;
    const std::string path = mirror_path(out_dir, std::string(fe->getName()));
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      llvm::errs() << "mpisim-privatize: cannot write " << path << ": " << ec.message() << "\n";
      return false;
    }
    auto pro = done.prologue.find(fid);
    if (pro != done.prologue.end()) {
      os << "#include <mpisim_privatize.h>\n";
      for (const std::string& line : pro->second)
        os << line << "\n";
    }
    os << "#line 1 " << c_string(fe->getName()) << "\n";
    if (const clang::RewriteBuffer* b = rw.getRewriteBufferFor(fid))
      b->write(os);
    else
      os << sm.getBufferData(fid);
  }
  return true;
}

} // namespace privatizer
