// gfortran's legacy generator (the GNU extensions SRAND, RAND and IRAND) per rank. libgfortran
// keeps its seed in one static word of the process, so the ranks of a host process drew in turn
// from one sequence, seeded by whichever rank called SRAND last. Old Monte Carlo codes seed it
// from the rank and expect the native sequence of that seed. The three entry points the compiled
// program calls are interposed: a call from a rank puts the rank's seed into libgfortran's word,
// runs libgfortran's own code, and keeps the word for the rank. The word is found once, by
// seeding twice and looking for the one word of libgfortran's data that took both seeds.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "interposed.hpp"
#include "loaded_object.hpp"
#include "world.hpp"

namespace {

/// The 8-byte words of the writable segments of the object that holds `code`.
std::vector<std::uint64_t*> writable_words_of(const void* code) {
  std::vector<std::uint64_t*> words;
  const std::optional<dl_phdr_info> object = mpilite::object_holding(code);
  if (!object) return words;
  for (int i = 0; i < object->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = object->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    const ElfW(Addr) end = object->dlpi_addr + ph.p_vaddr + ph.p_memsz;
    for (ElfW(Addr) a = (object->dlpi_addr + ph.p_vaddr + 7) & ~ElfW(Addr){7}; a + 8 <= end; a += 8)
      words.push_back(reinterpret_cast<std::uint64_t*>(a));
  }
  return words;
}

/// libgfortran's seed word: the one word of its data that holds each of two seeds SRAND set.
std::uint64_t* find_seed_word() {
  using Srand = void (*)(std::int32_t*);
  const auto srand = reinterpret_cast<Srand>(mpilite::libgfortran_symbol("_gfortran_srand"));
  std::vector<std::uint64_t*> words = writable_words_of(reinterpret_cast<const void*>(srand));
  for (std::int32_t seed : {0x2545F491, 0x1B873593}) {
    srand(&seed);
    std::erase_if(words, [&](const std::uint64_t* w) { return *w != std::uint64_t(seed); });
  }
  if (words.size() != 1) {
    std::fprintf(stderr, "mpisim: cannot find the seed of libgfortran's SRAND/RAND/IRAND "
                         "generator; it cannot be kept per rank\n");
    std::abort();
  }
  return words.front();
}

/// The seed of each rank that used the generator (1 until the rank seeds it, as in a new
/// process), in libgfortran's word while the rank's call runs.
std::uint64_t& seed_of(int rank) {
  static std::unordered_map<int, std::uint64_t> seeds;
  return seeds.try_emplace(rank, 1).first->second;
}

/// libgfortran's `Self` on the calling rank's seed.
template <auto Self, class... Args> auto per_rank(const char* name, Args... args) {
  const auto real = mpilite::libgfortran_own<Self>(name);
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (!w) return real(args...);
  static std::uint64_t* const word = find_seed_word();
  std::uint64_t& seed = seed_of(w->self().id);
  *word = seed;
  if constexpr (std::is_void_v<decltype(real(args...))>) {
    real(args...);
    seed = *word;
  } else {
    const auto drawn = real(args...);
    seed = *word;
    return drawn;
  }
}

} // namespace

// libgfortran's signatures: the seed or flag by address (null when RAND or IRAND has none).
extern "C" {
void _gfortran_srand(std::int32_t* seed) {
  per_rank<&_gfortran_srand>("_gfortran_srand", seed);
}
std::int32_t _gfortran_irand(std::int32_t* flag) {
  return per_rank<&_gfortran_irand>("_gfortran_irand", flag);
}
float _gfortran_rand(std::int32_t* flag) {
  return per_rank<&_gfortran_rand>("_gfortran_rand", flag);
}
}
