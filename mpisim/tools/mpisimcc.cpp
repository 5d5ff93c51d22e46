// mpisimcc / mpisimcxx: compile and link MPI programs against mpisim, accepting what
// mpicc / mpicxx accept. The language follows the name the tool was called by.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace {

struct Invocation {
  bool cxx = false;
  bool show = false;
  bool link = true; ///< false with -c, -S, -E, -M, -MM
  std::vector<std::string> user_args;
};

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

Invocation parse(int argc, char** argv) {
  Invocation inv;
  const std::string self = argv[0];
  const std::string base = self.substr(self.find_last_of('/') + 1);
  inv.cxx = base.find("cxx") != std::string::npos || base.find("++") != std::string::npos;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-show" || a == "--show") {
      inv.show = true;
      continue;
    }
    if (a == "-c" || a == "-S" || a == "-E" || a == "-M" || a == "-MM") inv.link = false;
    inv.user_args.push_back(a);
  }
  return inv;
}

std::vector<std::string> command(const Invocation& inv) {
  std::vector<std::string> cmd{inv.cxx ? MPISIM_CXX_COMPILER : MPISIM_C_COMPILER};
  for (const std::string& f : split(MPISIM_SANITIZE_FLAGS))
    cmd.push_back(f);
  cmd.push_back("-I" MPISIM_INCLUDE_DIR);
  cmd.insert(cmd.end(), inv.user_args.begin(), inv.user_args.end());
  if (inv.link) {
    // Pulling in the simulator's main makes a main() that was not renamed by mpi.h a loud
    // duplicate-definition error instead of a program that runs without simulation.
    cmd.push_back("-Wl,-u,mpisim_runtime_main_anchor");
    cmd.push_back(MPISIM_LIB_DIR "/libmpisim_main.a");
    // Whole archive: every MPI function has a weak "not implemented" fallback that the real
    // definition, wherever it is in the archive, must override.
    cmd.push_back("-Wl,--whole-archive");
    cmd.push_back(MPISIM_LIB_DIR "/libmpisim.a");
    cmd.push_back("-Wl,--no-whole-archive");
    for (const std::string& l : split(MPISIM_LINK_LIBS))
      cmd.push_back(l);
  }
  return cmd;
}

int run(const std::vector<std::string>& cmd) {
  std::vector<char*> args;
  for (const std::string& a : cmd)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    execvp(args[0], args.data());
    std::fprintf(stderr, "mpisimcc: cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace

int main(int argc, char** argv) {
  const Invocation inv = parse(argc, argv);
  if (inv.user_args.empty() && !inv.show) {
    std::fprintf(stderr, "usage: %s [compiler options] sources... [-o program] [-show]\n", argv[0]);
    return 2;
  }
  const std::vector<std::string> cmd = command(inv);
  if (inv.show) {
    std::string line;
    for (const std::string& a : cmd)
      line += (line.empty() ? "" : " ") + a;
    std::puts(line.c_str());
    return 0;
  }
  return run(cmd);
}
