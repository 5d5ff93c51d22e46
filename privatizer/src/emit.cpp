#include "emit.hpp"

#include "quote.hpp"

namespace privatizer {

std::string construct(const std::string& type, std::string init) {
  const auto first = init.find_first_not_of(" \t\n");
  if (first == std::string::npos) return type;
  init = init.substr(first);
  if (init[0] == '=') {
    init = init.substr(1);
    const auto f = init.find_first_not_of(" \t\n");
    init = f == std::string::npos ? "" : init.substr(f);
    return init.size() && init[0] == '{' ? type + init : type + "(" + init + ")";
  }
  return type + init;
}

std::string wrapper(const Plan& p, bool cxx) {
  const std::string guard = "MPISIM_W_" + p.id;
  const std::string type = (cxx ? "decltype(" : "__typeof__(") + p.proto + ")";
  return "\n#ifndef " + guard + "\n#define " + guard + "\nstruct __mpisim_w_" + p.id + " { " +
         type + " v __attribute__((aligned(__alignof__(" + p.proto + ")))); };\n#endif\n";
}

std::string tag_class(const std::string& tag, const std::string& where) {
  return "struct " + tag + " { static const char* where() { return " + c_string(where) + "; } }; ";
}

std::string lazy_copy(const std::string& tag, const std::string& type, const std::string& init) {
  return "::mpisim_priv::local_static<" + tag + ", " + type +
         ">([&](void* __mpisim_p) { ::new (__mpisim_p) " + construct(type, init) + "; })";
}

} // namespace privatizer
