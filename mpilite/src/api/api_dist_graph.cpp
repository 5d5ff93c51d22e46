// MPI entry points: distributed graph topologies (MPI-3.1 section 7.5.4). Each member keeps only
// its own edges (CommLocal::dist_graph). Ranks are never reordered (MPI allows keeping them).
#include <algorithm>
#include <climits>
#include <memory>
#include <vector>

#include "api_call.hpp"
#include "collectives.hpp"
#include "comm_create.hpp"

using namespace mpilite;

// The addresses are the markers; nothing reads or writes them.
extern "C" {
int mpisim_unweighted[1];
int mpisim_weights_empty[1];
}

namespace {

int arg_error(ApiCall& c, MPI_Comm comm, const char* what) {
  return c.error(comm, MPI_ERR_ARG, "{}", what);
}

/// The one Topology object of every distributed graph: its edges are per member.
std::shared_ptr<const Topology> dist_graph_kind() {
  static const auto t = [] {
    auto made = std::make_shared<Topology>();
    made->kind = MPI_DIST_GRAPH;
    return std::shared_ptr<const Topology>(std::move(made));
  }();
  return t;
}

/// `n` ranks of `cm` (`what`), each a member.
int check_ranks(ApiCall& c, const Comm& cm, int n, const int* ranks, const char* what) {
  if (n > 0 && !ranks) return c.error(cm.handle, MPI_ERR_ARG, "null {} ({} entries)", what, n);
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= cm.size)
      return c.error(cm.handle, MPI_ERR_RANK, "{}[{}] = {} is not a rank of {} (0..{})", what, i,
                     ranks[i], cm.label(), cm.size - 1);
  return MPI_SUCCESS;
}

/// `n` weights (`what`), or MPI_UNWEIGHTED; MPI_WEIGHTS_EMPTY stands for none.
int check_weights(ApiCall& c, const Comm& cm, int n, const int* weights, const char* what) {
  if (weights == MPI_UNWEIGHTED || n == 0) return MPI_SUCCESS;
  if (!weights || weights == MPI_WEIGHTS_EMPTY)
    return c.error(cm.handle, MPI_ERR_ARG, "no {} for {} edges (MPI_UNWEIGHTED if none)", what, n);
  for (int i = 0; i < n; ++i)
    if (weights[i] < 0)
      return c.error(cm.handle, MPI_ERR_ARG, "{}[{}] = {} is negative", what, i, weights[i]);
  return MPI_SUCCESS;
}

std::vector<int> weights_of(int n, const int* weights) {
  if (weights == MPI_UNWEIGHTED || n == 0) return {};
  return std::vector<int>(weights, weights + n);
}

/// Runs the schedule `build` makes as a blocking collective of the caller on `cm`.
template <class Build> int run_collective(ApiCall& c, const Comm& cm, Build build) {
  auto s = std::make_shared<Schedule>(c.w, c.r, cm);
  s->set_body(build(*s));
  return run_schedule(c.w, c.r, std::move(s));
}

/// MPI_Dist_graph_create's exchange: every edge goes to its source (as an out-edge) and to its
/// destination (as an in-edge), as (peer, weight) pairs: an alltoall of the pair counts, then an
/// alltoallv of the pairs. Each member lists what it gets by contributing rank, then in the order
/// the contributor gave its edges. (MPICH lists them in the order the messages arrive, which is
/// this order when they arrive by rank.)
int gather_edges(ApiCall& c, const Comm& cm, int n, const int sources[], const int degrees[],
                 const int destinations[], const int weights[], DistGraphEdges& mine) {
  const auto p = static_cast<std::size_t>(cm.size);
  std::vector<std::vector<int>> in(p), out(p); // pairs bound for each rank
  for (int i = 0, k = 0; i < n; ++i)
    for (int j = 0; j < degrees[i]; ++j, ++k) {
      const int w = weights == MPI_UNWEIGHTED ? 0 : weights[k];
      const auto src = static_cast<std::size_t>(sources[i]);
      const auto dst = static_cast<std::size_t>(destinations[k]);
      out[src].insert(out[src].end(), {destinations[k], w});
      in[dst].insert(in[dst].end(), {sources[i], w});
    }
  std::vector<int> sizes(2 * p), their_sizes(2 * p);
  for (std::size_t r = 0; r < p; ++r) {
    sizes[2 * r] = static_cast<int>(in[r].size());
    sizes[2 * r + 1] = static_cast<int>(out[r].size());
  }
  const Datatype& ints = *builtin_datatype(MPI_INT);
  if (int e = run_collective(c, cm, [&](Schedule& s) {
        return build_alltoall(s, sizes.data(), 2, ints, their_sizes.data(), 2, ints);
      }))
    return e;
  std::vector<int> sendbuf, scounts(p), sdispls(p), rcounts(p), rdispls(p);
  int received = 0;
  for (std::size_t r = 0; r < p; ++r) {
    sdispls[r] = static_cast<int>(sendbuf.size());
    sendbuf.insert(sendbuf.end(), in[r].begin(), in[r].end());
    sendbuf.insert(sendbuf.end(), out[r].begin(), out[r].end());
    scounts[r] = static_cast<int>(sendbuf.size()) - sdispls[r];
    rdispls[r] = received;
    rcounts[r] = their_sizes[2 * r] + their_sizes[2 * r + 1];
    received += rcounts[r];
  }
  std::vector<int> recvbuf(static_cast<std::size_t>(received));
  if (int e = run_collective(c, cm, [&](Schedule& s) {
        return build_alltoallv(s, sendbuf.data(), scounts.data(), sdispls.data(), ints,
                               recvbuf.data(), rcounts.data(), rdispls.data(), ints);
      }))
    return e;
  for (std::size_t r = 0; r < p; ++r) {
    const int* pair = recvbuf.data() + rdispls[r];
    for (int i = 0; i < their_sizes[2 * r]; i += 2, pair += 2) {
      mine.sources.push_back(pair[0]);
      if (mine.weighted) mine.source_weights.push_back(pair[1]);
    }
    for (int i = 0; i < their_sizes[2 * r + 1]; i += 2, pair += 2) {
      mine.destinations.push_back(pair[0]);
      if (mine.weighted) mine.destination_weights.push_back(pair[1]);
    }
  }
  return MPI_SUCCESS;
}

/// Makes the communicator of a distributed graph over all of `cm`, with the caller's `edges`.
int make_dist_graph(ApiCall& c, const Comm& cm, std::shared_ptr<const DistGraphEdges> edges,
                    MPI_Comm* out) {
  if (int e = create_comm(c, cm, members_of(cm, c.r), dist_graph_kind(), out)) return e;
  c.r.comms.at(*out).dist_graph = std::move(edges);
  return MPI_SUCCESS;
}

/// The caller's edges on `comm`, which must be a distributed graph.
int check_dist_graph(ApiCall& c, MPI_Comm comm, const DistGraphEdges*& out) {
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  const CommLocal* l = c.r.comms.find(comm);
  out = l ? l->dist_graph.get() : nullptr;
  if (out && cm->topology && cm->topology->kind == MPI_DIST_GRAPH) return MPI_SUCCESS;
  return c.error(comm, MPI_ERR_TOPOLOGY, "{} has no distributed graph topology", cm->label());
}

} // namespace

extern "C" {

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info /*info*/, int /*reorder*/, MPI_Comm* comm_dist_graph) {
  ApiCall c("MPI_Dist_graph_create_adjacent");
  Comm* cm;
  if (int e = c.check_comm(comm_old, cm)) return e;
  if (indegree < 0 || outdegree < 0)
    return c.error(comm_old, MPI_ERR_ARG, "negative degree (indegree {}, outdegree {})", indegree,
                   outdegree);
  if (int e = check_ranks(c, *cm, indegree, sources, "sources")) return e;
  if (int e = check_ranks(c, *cm, outdegree, destinations, "destinations")) return e;
  if (int e = check_weights(c, *cm, indegree, sourceweights, "sourceweights")) return e;
  if (int e = check_weights(c, *cm, outdegree, destweights, "destweights")) return e;
  if (!comm_dist_graph) return arg_error(c, comm_old, "null comm_dist_graph");
  c.collective(comm_old);
  auto edges = std::make_shared<DistGraphEdges>();
  edges->sources.assign(sources, sources + indegree);
  edges->destinations.assign(destinations, destinations + outdegree);
  edges->weighted = sourceweights != MPI_UNWEIGHTED;
  edges->source_weights = weights_of(indegree, sourceweights);
  edges->destination_weights = weights_of(outdegree, destweights);
  const int e = make_dist_graph(c, *cm, std::move(edges), comm_dist_graph);
  // Weights change no time: the replay makes the graph unweighted.
  MPISIM_RECORD_OP(c, "dist_graph_adjacent", CommArg{comm_old}, IntsArg{indegree, sources},
                   IntsArg{outdegree, destinations}, NewCommArg{*comm_dist_graph});
  return e;
}
MPISIM_WEAK_ALIAS(Dist_graph_create_adjacent)

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info /*info*/,
                           int /*reorder*/, MPI_Comm* comm_dist_graph) {
  ApiCall c("MPI_Dist_graph_create");
  Comm* cm;
  if (int e = c.check_comm(comm_old, cm)) return e;
  if (n < 0) return c.error(comm_old, MPI_ERR_ARG, "negative number of sources {}", n);
  if (n > 0 && !degrees) return arg_error(c, comm_old, "null degrees");
  if (int e = check_ranks(c, *cm, n, sources, "sources")) return e;
  long total = 0;
  for (int i = 0; i < n; ++i) {
    if (degrees[i] < 0)
      return c.error(comm_old, MPI_ERR_ARG, "degrees[{}] = {} is negative", i, degrees[i]);
    total += degrees[i];
  }
  if (total > INT_MAX)
    return c.error(comm_old, MPI_ERR_ARG, "the degrees add up to {}, more than an int counts",
                   total);
  const int edges_given = static_cast<int>(total);
  if (int e = check_ranks(c, *cm, edges_given, destinations, "destinations")) return e;
  if (int e = check_weights(c, *cm, edges_given, weights, "weights")) return e;
  if (!comm_dist_graph) return arg_error(c, comm_old, "null comm_dist_graph");
  c.collective(comm_old);
  auto edges = std::make_shared<DistGraphEdges>();
  edges->weighted = weights != MPI_UNWEIGHTED;
  if (int e = gather_edges(c, *cm, n, sources, degrees, destinations, weights, *edges))
    return c.error(comm_old, e, "the exchange of the graph's edges failed");
  const int e = make_dist_graph(c, *cm, std::move(edges), comm_dist_graph);
  // The exchange sends (peer, weight) pairs weighted or not: the replay's unweighted graph
  // costs the same.
  MPISIM_RECORD_OP(c, "dist_graph", CommArg{comm_old}, IntsArg{n, sources}, IntsArg{n, degrees},
                   IntsArg{edges_given, destinations}, NewCommArg{*comm_dist_graph});
  return e;
}
MPISIM_WEAK_ALIAS(Dist_graph_create)

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  ApiCall c("MPI_Dist_graph_neighbors_count");
  const DistGraphEdges* g;
  if (int e = check_dist_graph(c, comm, g)) return e;
  if (!indegree || !outdegree || !weighted)
    return arg_error(c, comm, "null indegree, outdegree or weighted");
  *indegree = static_cast<int>(g->sources.size());
  *outdegree = static_cast<int>(g->destinations.size());
  *weighted = g->weighted;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Dist_graph_neighbors_count)

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                              int maxoutdegree, int destinations[], int destweights[]) {
  ApiCall c("MPI_Dist_graph_neighbors");
  const DistGraphEdges* g;
  if (int e = check_dist_graph(c, comm, g)) return e;
  const int in = static_cast<int>(g->sources.size());
  const int out = static_cast<int>(g->destinations.size());
  if (maxindegree < in || maxoutdegree < out)
    return c.error(comm, MPI_ERR_ARG,
                   "room for {} sources and {} destinations, but the rank has {} and {}",
                   maxindegree, maxoutdegree, in, out);
  if ((in > 0 && !sources) || (out > 0 && !destinations))
    return arg_error(c, comm, "null sources or destinations");
  std::copy(g->sources.begin(), g->sources.end(), sources);
  std::copy(g->destinations.begin(), g->destinations.end(), destinations);
  // Weights are returned only where the program asks for them and the graph has them.
  auto wanted = [](const int* w) { return w && w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY; };
  if (g->weighted && wanted(sourceweights))
    std::copy(g->source_weights.begin(), g->source_weights.end(), sourceweights);
  if (g->weighted && wanted(destweights))
    std::copy(g->destination_weights.begin(), g->destination_weights.end(), destweights);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Dist_graph_neighbors)

} // extern "C"
