// The synchronization protocols by name (MPISIM_PROTOCOL). Each protocol registers itself from
// its own .cpp with MPISIM_REGISTER_PROTOCOL: its name, a one-line description and how to build
// it. Settings, --help and the report read the registry; nothing else lists the protocols.
//
// A registration is a static object, which a linker drops with its archive member when nothing
// references that member. So the macro also defines an anchor that the registry references
// through a list the build generates from the files named *_protocol.cpp
// (protocols/CMakeLists.txt): whoever links the registry links every protocol, whole archive or
// not.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::protocols {

class SyncProtocol;
struct ProtocolContext;

struct ProtocolInfo {
  std::string_view name;        ///< what users give (MPISIM_PROTOCOL)
  std::string_view description; ///< one line, for --help
  std::unique_ptr<SyncProtocol> (*make)(const ProtocolContext&);
};

class ProtocolRegistry {
public:
  /// Adds a protocol (from a static registration object); returns true. A name registered twice
  /// ends the program at start-up.
  static bool add(const ProtocolInfo& info);
  /// The protocol of that name, or nullptr.
  static const ProtocolInfo* find(std::string_view name);
  /// Every registered protocol, by name.
  static std::vector<ProtocolInfo> all();
  /// Their names, ", "-separated, by name.
  static std::string names();
  /// The protocol of that name, built; throws std::invalid_argument for an unknown name.
  static std::unique_ptr<SyncProtocol> make(std::string_view name, const ProtocolContext& c);
};

/// The protocol a run uses when none is given.
inline constexpr std::string_view kDefaultProtocol = "nmp+cep";

} // namespace mpisim::protocols

/// Registers `Class` (constructible from a ProtocolContext) under `name`. `unit` is the stem of
/// the protocol's file (quantum_protocol for quantum_protocol.cpp): its anchor keeps the file
/// linked. Use once, at namespace scope of mpisim::protocols, in the protocol's .cpp.
#define MPISIM_REGISTER_PROTOCOL(unit, Class, name, description)                                   \
  extern const bool kProtocolUnit_##unit;                                                          \
  const bool kProtocolUnit_##unit = ::mpisim::protocols::ProtocolRegistry::add(                    \
      {name, description,                                                                          \
       [](const ::mpisim::protocols::ProtocolContext& c)                                           \
           -> std::unique_ptr<::mpisim::protocols::SyncProtocol> {                                 \
         return std::make_unique<Class>(c);                                                        \
       }})
