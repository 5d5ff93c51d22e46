#include "summary_codec.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace mpisim {
namespace {

class Writer {
public:
  template <class T> void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  }
  void text(const std::string& t) {
    pod(t.size());
    const auto* p = reinterpret_cast<const std::byte*>(t.data());
    out.insert(out.end(), p, p + t.size());
  }
  std::vector<std::byte> out;
};

class Reader {
public:
  explicit Reader(const std::vector<std::byte>& b) : in(b) {}
  template <class T> T pod() {
    T v;
    need(sizeof v);
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string text() {
    const auto n = pod<std::size_t>();
    need(n);
    std::string t(reinterpret_cast<const char*>(in.data() + at), n);
    at += n;
    return t;
  }

private:
  void need(std::size_t n) const {
    if (at + n > in.size()) throw std::runtime_error("truncated summary from a host process");
  }
  const std::vector<std::byte>& in;
  std::size_t at = 0;
};

} // namespace

std::vector<std::byte> encode_host_part(const RunSummary& s, const HostSummary& host) {
  Writer w;
  w.pod(host);
  w.pod(s.ranks.size());
  for (const RankSummary& r : s.ranks)
    w.pod(r);
  w.pod(s.blocked.size());
  for (const std::string& line : s.blocked)
    w.text(line);
  w.pod(s.remote_messages);
  return std::move(w.out);
}

void decode_host_part(const std::vector<std::byte>& bytes, RunSummary& into) {
  Reader r(bytes);
  const auto host = r.pod<HostSummary>();
  into.host_stats.push_back(host);
  into.local_messages += host.local_messages;
  into.context_switches += host.context_switches;
  into.idle_rounds += host.idle_rounds;
  const auto n = r.pod<std::size_t>();
  for (std::size_t i = 0; i < n; ++i)
    into.ranks.push_back(r.pod<RankSummary>());
  const auto blocked = r.pod<std::size_t>();
  for (std::size_t i = 0; i < blocked; ++i)
    into.blocked.push_back(r.text());
  into.remote_messages += r.pod<std::uint64_t>();
}

} // namespace mpisim
