#include "protocol_registry.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "protocol_units.hpp" // generated: MPISIM_PROTOCOL_UNITS(X), one X per *_protocol.cpp
#include "sync_protocol.hpp"

namespace mpisim::protocols {

// Each protocol file's anchor (MPISIM_REGISTER_PROTOCOL). This table's references to them keep
// every protocol's object file in any program that links the registry.
#define MPISIM_DECLARE_UNIT(unit) extern const bool kProtocolUnit_##unit;
MPISIM_PROTOCOL_UNITS(MPISIM_DECLARE_UNIT)
#undef MPISIM_DECLARE_UNIT

namespace {

#define MPISIM_ADDRESS_OF_UNIT(unit) &kProtocolUnit_##unit,
[[gnu::used]] const bool* const kUnits[] = {MPISIM_PROTOCOL_UNITS(MPISIM_ADDRESS_OF_UNIT)};
#undef MPISIM_ADDRESS_OF_UNIT

std::vector<ProtocolInfo>& entries() {
  static std::vector<ProtocolInfo> e;
  return e;
}

} // namespace

bool ProtocolRegistry::add(const ProtocolInfo& info) {
  auto& e = entries();
  if (std::any_of(e.begin(), e.end(), [&](const ProtocolInfo& p) { return p.name == info.name; })) {
    std::fprintf(stderr, "mpisim: the protocol %.*s is registered twice\n",
                 static_cast<int>(info.name.size()), info.name.data());
    std::abort();
  }
  const auto at =
      std::lower_bound(e.begin(), e.end(), info, [](const ProtocolInfo& a, const ProtocolInfo& b) {
        return a.name < b.name;
      });
  e.insert(at, info);
  return true;
}

const ProtocolInfo* ProtocolRegistry::find(std::string_view name) {
  for (const auto& p : entries())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<ProtocolInfo> ProtocolRegistry::all() {
  return entries();
}

std::string ProtocolRegistry::names() {
  std::string s;
  for (const auto& p : all())
    s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

std::unique_ptr<SyncProtocol> ProtocolRegistry::make(std::string_view name,
                                                     const ProtocolContext& c) {
  const ProtocolInfo* p = find(name);
  if (!p)
    throw std::invalid_argument("unknown synchronization protocol " + std::string(name) +
                                " (known: " + names() + ")");
  return p->make(c);
}

} // namespace mpisim::protocols
