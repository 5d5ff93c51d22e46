#include <array>
#include <utility>

#include "cep_protocol.hpp"
#include "nmp_cep_protocol.hpp"
#include "nmp_protocol.hpp"
#include "quantum_protocol.hpp"

namespace mpisim::protocols {
namespace {

constexpr std::array<std::pair<ProtocolKind, std::string_view>, 4> kNames{{
    {ProtocolKind::Quantum, "quantum"},
    {ProtocolKind::Nmp, "nmp"},
    {ProtocolKind::Cep, "cep"},
    {ProtocolKind::NmpCep, "nmp+cep"},
}};

} // namespace

std::string_view protocol_name(ProtocolKind k) {
  for (const auto& [kind, name] : kNames)
    if (kind == k) return name;
  return "?";
}

std::unique_ptr<SyncProtocol> make_protocol(ProtocolKind kind, const ProtocolContext& c) {
  switch (kind) {
  case ProtocolKind::Quantum:
    return std::make_unique<QuantumProtocol>(c);
  case ProtocolKind::Nmp:
    return std::make_unique<NmpProtocol>(c);
  case ProtocolKind::Cep:
    return std::make_unique<CepProtocol>(c);
  case ProtocolKind::NmpCep:
    return std::make_unique<NmpCepProtocol>(c);
  }
  return nullptr;
}

} // namespace mpisim::protocols
