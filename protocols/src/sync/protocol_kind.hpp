// The synchronization protocols by name (MPISIM_PROTOCOL): a small header for the settings.
#pragma once

#include <string_view>

namespace mpisim::protocols {

enum class ProtocolKind { Quantum, Nmp, Cep, NmpCep };

/// The name users give (MPISIM_PROTOCOL).
std::string_view protocol_name(ProtocolKind k);

} // namespace mpisim::protocols
