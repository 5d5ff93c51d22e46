#include "wrapper_invocation.hpp"

#include <array>
#include <initializer_list>
#include <string_view>

namespace wrapper {
namespace {

bool starts_with(const std::string& s, std::string_view p) {
  return s.rfind(p, 0) == 0;
}

// Options whose value is the next argument.
constexpr std::array<std::string_view, 10> kWithValue = {
    "-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-x", "-MF", "-MT"};
constexpr std::array<std::string_view, 8> kPreprocessorPrefixes = {
    "-I", "-D", "-U", "-std=", "-include", "-isystem", "-iquote", "-idirafter"};

} // namespace

namespace {

bool has_extension(const std::string& path, std::initializer_list<std::string_view> extensions) {
  for (std::string_view ext : extensions)
    if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0)
      return true;
  return false;
}

} // namespace

bool is_cxx_source(const std::string& path) {
  return has_extension(path, {".cc", ".cpp", ".cxx", ".C", ".c++", ".ii"});
}

bool is_source(const std::string& path) {
  return is_cxx_source(path) || has_extension(path, {".c", ".i"});
}

bool has_option(const std::vector<std::string>& flags, std::string_view prefix) {
  for (const std::string& f : flags)
    if (f.starts_with(prefix)) return true;
  return false;
}

Invocation parse(const std::vector<std::string>& args, const std::string& name) {
  Invocation inv;
  const std::string base = name.substr(name.find_last_of('/') + 1);
  inv.cxx = base.find("cxx") != std::string::npos || base.find("++") != std::string::npos;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "-show" || a == "--show" || a == "-showme") {
      inv.show = true;
      continue;
    }
    if (a == "-keep") {
      inv.keep = true;
      continue;
    }
    if (a == "-mpisim-no-privatize") {
      inv.privatize = false;
      continue;
    }
    if (a == "-mpisim-shared-ok") {
      inv.shared_ok = true;
      continue;
    }
    if (a == "-o" && i + 1 < args.size()) {
      inv.output = args[++i];
      continue;
    }
    if (a == "-c") inv.mode = Mode::Compile;
    if (a == "-S") inv.mode = Mode::Assemble;
    if (a == "-E") inv.mode = Mode::Preprocess;
    if (a == "-c" || a == "-S" || a == "-E") continue;
    if (a.size() > 1 && a[0] != '-') {
      if (is_source(a)) {
        inv.link_items.push_back({"", static_cast<int>(inv.sources.size())});
        inv.sources.push_back(a);
      } else {
        inv.link_items.push_back({a});
      }
      continue;
    }
    if (starts_with(a, "-l") || starts_with(a, "-L") || starts_with(a, "-Wl,") || a == "-static" ||
        a == "-shared" || a == "-rdynamic") {
      inv.link_items.push_back({a});
      continue;
    }
    if (a == "-Xlinker" && i + 1 < args.size()) {
      inv.link_items.push_back({a});
      inv.link_items.push_back({args[++i]});
      continue;
    }
    // An option and its value, as one or two arguments ("-Idir" or "-I dir").
    std::vector<std::string> option{a};
    for (std::string_view opt : kWithValue)
      if (a == opt && i + 1 < args.size()) {
        option.push_back(args[++i]);
        break;
      }
    const std::string value = option.size() == 2 ? option[1] : "";
    if (a == "-MD" || a == "-MMD") inv.dependencies = true;
    if (a == "-MF") inv.dependency_files.push_back(value);
    if (starts_with(a, "-MF") && a.size() > 3) inv.dependency_files.push_back(a.substr(3));
    if (a == "-I" || a == "-iquote") inv.include_dirs.push_back(value);
    if (a == "-I") inv.search_dirs.push_back(value);
    if (starts_with(a, "-I") && a.size() > 2) {
      inv.include_dirs.push_back(a.substr(2));
      inv.search_dirs.push_back(a.substr(2));
    }
    if (starts_with(a, "-iquote") && a.size() > 7) inv.include_dirs.push_back(a.substr(7));
    for (std::string_view opt : {std::string_view("-isystem"), std::string_view("-idirafter")})
      if (starts_with(a, opt))
        inv.system_dirs.push_back(a.size() > opt.size() ? a.substr(opt.size()) : value);
    // -fcommon decides whether same-named tentative definitions of C files are one variable;
    // -fopenmp makes the privatizer parse the OpenMP clauses that may name globals (and
    // defines _OPENMP, which may select code).
    bool preprocessor = a == "-ansi" || a == "-fcommon" || a == "-fno-common" || a == "-fopenmp" ||
                        a == "-fopenmp-simd" || a == "-fno-openmp";
    for (std::string_view p : kPreprocessorPrefixes)
      preprocessor |= starts_with(a, p);
    if (preprocessor)
      inv.preprocessor_flags.insert(inv.preprocessor_flags.end(), option.begin(), option.end());
    inv.compile_flags.insert(inv.compile_flags.end(), option.begin(), option.end());
  }
  return inv;
}

} // namespace wrapper
