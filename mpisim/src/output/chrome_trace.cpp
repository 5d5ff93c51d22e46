#include "chrome_trace.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace mpisim {
namespace {

/// Flow ids must be unique per message: (source, sequence number) is, and stays below 2^53 so
/// that viewers that read JSON numbers as doubles keep it exact.
std::uint64_t flow_id(int src, std::uint64_t seq) {
  return (static_cast<std::uint64_t>(src) << 32) | (seq & 0xffffffffu);
}

} // namespace

/// Events are written in blocks of about this many bytes.
constexpr std::size_t kSpillBytes = 1 << 20;

std::string trace_microseconds(SimTime ps) {
  const char* sign = ps < 0 ? "-" : "";
  const SimTime a = ps < 0 ? -ps : ps;
  return fmt::format("{}{}.{:06}", sign, a / 1'000'000, a % 1'000'000);
}

ChromeTrace::ChromeTrace(std::string part_path)
    : path_(std::move(part_path)), file_(std::fopen(path_.c_str(), "w")) {
  if (!file_) throw std::runtime_error(fmt::format("MPISIM_TRACE: cannot write {}", path_));
}

ChromeTrace::~ChromeTrace() {
  close();
}

void ChromeTrace::spill() {
  if (file_ && events_.size() > 0) std::fwrite(events_.data(), 1, events_.size(), file_);
  events_.clear();
}

void ChromeTrace::close() {
  if (!file_) return;
  spill();
  const bool failed = std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed) throw std::runtime_error(fmt::format("MPISIM_TRACE: cannot write {}", path_));
}

std::string ChromeTrace::part_path(const std::string& path, int host) {
  return fmt::format("{}.part{}", path, host);
}

void ChromeTrace::slice(int rank, const char* name, const char* category, SimTime start,
                        SimTime end, const std::string& args) {
  fmt::format_to(fmt::appender(events_),
                 "{{\"ph\":\"X\",\"pid\":0,\"tid\":{},\"name\":\"{}\",\"cat\":\"{}\",\"ts\":{},"
                 "\"dur\":{},\"args\":{{{}}}}},\n",
                 rank, name, category, trace_microseconds(start), trace_microseconds(end - start),
                 args);
  if (events_.size() > kSpillBytes) spill();
}

void ChromeTrace::flow(char phase, int track, int src, int dst, std::uint64_t seq,
                       std::uint64_t bytes, int tag, SimTime t) {
  // "bp":"e" binds the arrow's end to the slice enclosing it (the receiving call).
  fmt::format_to(fmt::appender(events_),
                 "{{\"ph\":\"{}\",\"pid\":0,\"tid\":{},\"name\":\"message\",\"cat\":\"message\","
                 "\"id\":{},{}\"ts\":{},\"args\":{{\"src\":{},\"dst\":{},\"seq\":{},\"bytes\":{},"
                 "\"tag\":{}}}}},\n",
                 phase, track, flow_id(src, seq), phase == 'f' ? "\"bp\":\"e\"," : "",
                 trace_microseconds(t), src, dst, seq, bytes, tag);
  if (events_.size() > kSpillBytes) spill();
}

void ChromeTrace::message_sent(int src, int dst, std::uint64_t seq, std::uint64_t bytes, int tag,
                               SimTime t) {
  flow('s', src, src, dst, seq, bytes, tag, t);
}

void ChromeTrace::message_received(int src, int dst, std::uint64_t seq, std::uint64_t bytes,
                                   int tag, SimTime t) {
  flow('f', dst, src, dst, seq, bytes, tag, t);
}

void ChromeTrace::write(const std::string& path, int hosts, int ranks) {
  std::ofstream out(path, std::ios::binary);
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"mpisim\",\"time_unit\":"
         "\"simulated microseconds\"},\n\"traceEvents\":[\n";
  for (int h = 0; h < hosts; ++h) {
    const std::string part = part_path(path, h);
    std::ifstream in(part, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("MPISIM_TRACE: the part {} is missing", part));
    out << in.rdbuf();
    in.close();
    std::remove(part.c_str());
  }
  out << "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"mpisim "
         "(simulated time)\"}}";
  for (int r = 0; r < ranks; ++r)
    out << fmt::format(
        ",\n{{\"ph\":\"M\",\"pid\":0,\"tid\":{0},\"name\":\"thread_name\","
        "\"args\":{{\"name\":\"rank {0}\"}}}},\n{{\"ph\":\"M\",\"pid\":0,\"tid\":{0},"
        "\"name\":\"thread_sort_index\",\"args\":{{\"sort_index\":{0}}}}}",
        r);
  out << "\n]}\n";
  if (!out) throw std::runtime_error(fmt::format("cannot write the trace to {}", path));
}

} // namespace mpisim
