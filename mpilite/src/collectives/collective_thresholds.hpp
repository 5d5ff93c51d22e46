// MPICH's defaults for choosing collective algorithms (the defaults of its MPIR_CVAR_* control
// variables), in bytes unless said otherwise. docs/model.md tabulates them.
#pragma once

#include <cstddef>

namespace mpilite::thresholds {

constexpr std::size_t kBcastShort = 12288;         ///< below: binomial tree
constexpr int kBcastMinRanks = 8;                  ///< fewer ranks: binomial tree
constexpr std::size_t kBcastLong = 524288;         ///< below, on 2^k ranks: recursive doubling
constexpr std::size_t kReduceShort = 2048;         ///< above: Rabenseifner
constexpr std::size_t kAllreduceShort = 2048;      ///< above: Rabenseifner
constexpr std::size_t kAllgatherLong = 524288;     ///< below, on 2^k ranks: recursive doubling
constexpr std::size_t kAllgatherShort = 81920;     ///< below: Bruck
constexpr std::size_t kAllgathervPipeline = 32768; ///< ring pieces of allgatherv
constexpr std::size_t kAlltoallShort = 256;        ///< up to: Bruck (with >= 8 ranks)
constexpr int kAlltoallMinRanksBruck = 8;          ///< fewer ranks: no Bruck
constexpr std::size_t kAlltoallMedium = 32768;     ///< up to: batched exchanges
constexpr int kAlltoallThrottle = 32;              ///< exchanges per batch
constexpr std::size_t kReduceScatterLong = 524288; ///< commutative, from: pairwise
constexpr int kGathervSsendMinRanks = 32;          ///< from: Gatherv's senders use Ssend
constexpr std::size_t kGatherInterShort = 2048;    ///< intercomm, below: local gather + send
constexpr std::size_t kScatterInterShort = 2048;   ///< intercomm, below: send + local scatter

} // namespace mpilite::thresholds
