// MPI entry points: Cartesian and graph topologies (MPI-3.1 chapter 7). Ranks are never
// reordered: with `reorder` true MPI allows, but does not require, another placement.
#include <algorithm>
#include <vector>

#include "api_call.hpp"
#include "comm_create.hpp"

using namespace mpilite;

namespace {

int arg_error(ApiCall& c, MPI_Comm comm, const char* what) {
  return c.error(comm, MPI_ERR_ARG, "{}", what);
}

/// `comm` and its topology, which must be of `kind`.
int check_topology(ApiCall& c, MPI_Comm comm, int kind, Comm*& cm, const Topology*& t) {
  if (int e = c.check_intracomm(comm, cm)) return e;
  t = cm->topology.get();
  if (t && t->kind == kind) return MPI_SUCCESS;
  return c.error(comm, MPI_ERR_TOPOLOGY, "{} has no {} topology", cm->label(),
                 kind == MPI_CART ? "Cartesian" : "graph (MPI_Graph_create)");
}

/// Checks a grid's dims and periods, and that it fits in `cm`; `nodes` gets its size.
int check_grid(ApiCall& c, MPI_Comm comm, const Comm& cm, int ndims, const int dims[],
               const int periods[], int& nodes) {
  if (ndims < 0) return c.error(comm, MPI_ERR_DIMS, "negative number of dimensions {}", ndims);
  if (ndims > 0 && (!dims || !periods)) return arg_error(c, comm, "null dims or periods");
  long long n = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0)
      return c.error(comm, MPI_ERR_DIMS, "dimension {} has extent {} (must be positive)", i,
                     dims[i]);
    n = std::min(n * dims[i], static_cast<long long>(cm.size) + 1);
  }
  if (n > cm.size)
    return c.error(comm, MPI_ERR_TOPOLOGY, "the grid has more points than {} has ranks ({})",
                   cm.label(), cm.size);
  nodes = static_cast<int>(n);
  return MPI_SUCCESS;
}

/// Checks a graph's index and edges, and that it fits in `cm`.
int check_graph(ApiCall& c, MPI_Comm comm, const Comm& cm, int nnodes, const int index[],
                const int edges[]) {
  if (nnodes < 0) return c.error(comm, MPI_ERR_ARG, "negative number of nodes {}", nnodes);
  if (nnodes > cm.size)
    return c.error(comm, MPI_ERR_TOPOLOGY, "the graph has {} nodes, more than {} has ranks ({})",
                   nnodes, cm.label(), cm.size);
  if (nnodes > 0 && !index) return arg_error(c, comm, "null index");
  for (int i = 0; i < nnodes; ++i)
    if (index[i] < (i == 0 ? 0 : index[i - 1]))
      return c.error(comm, MPI_ERR_ARG, "index[{}] = {} is smaller than the entry before it", i,
                     index[i]);
  const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
  if (nedges > 0 && !edges) return arg_error(c, comm, "null edges");
  for (int i = 0; i < nedges; ++i)
    if (edges[i] < 0 || edges[i] >= nnodes)
      return c.error(comm, MPI_ERR_ARG, "edges[{}] = {} is not a node (0..{})", i, edges[i],
                     nnodes - 1);
  return MPI_SUCCESS;
}

/// The first `n` members of `parent` (n <= its size).
std::shared_ptr<const RankList> first_members(const Comm& parent, const Rank& r, int n) {
  const auto all = members_of(parent, r);
  if (all->is_identity()) return RankList::identity(n);
  std::vector<int> world(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    world[static_cast<std::size_t>(i)] = all->world(i);
  return RankList::of(std::move(world));
}

int my_rank(ApiCall& c, const Comm& cm) {
  return cm.rank_of(c.r.id);
}

} // namespace

extern "C" {

int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
  ApiCall c("MPI_Dims_create");
  if (int e = c.check_init()) return e;
  if (nnodes < 0) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative nnodes {}", nnodes);
  if (ndims < 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_DIMS, "negative number of dimensions {}", ndims);
  if (ndims > 0 && !dims) return arg_error(c, MPI_COMM_WORLD, "null dims");
  for (int i = 0; i < ndims; ++i)
    if (dims[i] < 0)
      return c.error(MPI_COMM_WORLD, MPI_ERR_DIMS, "dims[{}] = {} is negative", i, dims[i]);
  if (!dims_create(nnodes, ndims, dims))
    return c.error(MPI_COMM_WORLD, MPI_ERR_DIMS,
                   "{} nodes cannot be divided into a grid with the given nonzero dims", nnodes);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Dims_create)

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int /*reorder*/, MPI_Comm* comm_cart) {
  ApiCall c("MPI_Cart_create");
  Comm* cm;
  int nodes;
  if (int e = c.check_intracomm(comm_old, cm)) return e;
  if (int e = check_grid(c, comm_old, *cm, ndims, dims, periods, nodes)) return e;
  if (!comm_cart) return arg_error(c, comm_old, "null comm_cart");
  c.collective(comm_old);
  auto topo = std::make_shared<Topology>();
  topo->kind = MPI_CART;
  topo->dims.assign(dims, dims + ndims);
  for (int i = 0; i < ndims; ++i)
    topo->periods.push_back(periods[i] != 0);
  const int e = create_comm(c, *cm, first_members(*cm, c.r, nodes), std::move(topo), comm_cart);
  MPISIM_RECORD_OP(c, "cart_create", CommArg{comm_old}, IntsArg{ndims, dims},
                   IntsArg{ndims, periods}, NewCommArg{*comm_cart});
  return e;
}
MPISIM_WEAK_ALIAS(Cart_create)

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  ApiCall c("MPI_Cart_sub");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_CART, cm, t)) return e;
  if (t->ndims() > 0 && !remain_dims) return arg_error(c, comm, "null remain_dims");
  if (!newcomm) return arg_error(c, comm, "null newcomm");
  c.collective(comm);
  // Ranks that agree on the dropped coordinates form one subgrid; MPICH splits likewise.
  std::vector<int> coords(static_cast<std::size_t>(t->ndims()));
  t->cart_coords(my_rank(c, *cm), coords.data());
  auto sub = std::make_shared<Topology>();
  sub->kind = MPI_CART;
  int color = 0;
  for (int i = 0; i < t->ndims(); ++i) {
    const std::size_t d = static_cast<std::size_t>(i);
    if (remain_dims[i]) {
      sub->dims.push_back(t->dims[d]);
      sub->periods.push_back(t->periods[d]);
    } else {
      color = color * t->dims[d] + coords[d];
    }
  }
  // No dimension remains: a grid of one point, which (as MPI_Cart_create with ndims 0 makes it)
  // is rank 0's; the others get MPI_COMM_NULL. MPICH does the same.
  if (sub->dims.empty()) color = my_rank(c, *cm) == 0 ? 0 : MPI_UNDEFINED;
  const int ndims = t->ndims(); // making the new communicator may move the table `t` is in
  const int e = split_comm(c, *cm, color, my_rank(c, *cm), std::move(sub), newcomm);
  MPISIM_RECORD_OP(c, "cart_sub", CommArg{comm}, IntsArg{ndims, remain_dims}, NewCommArg{*newcomm});
  return e;
}
MPISIM_WEAK_ALIAS(Cart_sub)

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  ApiCall c("MPI_Cart_coords");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_CART, cm, t)) return e;
  if (rank < 0 || rank >= t->cart_size())
    return c.error(comm, MPI_ERR_RANK, "invalid rank {} (the grid has {} points)", rank,
                   t->cart_size());
  if (maxdims < t->ndims())
    return c.error(comm, MPI_ERR_ARG, "maxdims {} is less than the {} dimensions", maxdims,
                   t->ndims());
  if (t->ndims() > 0 && !coords) return arg_error(c, comm, "null coords");
  t->cart_coords(rank, coords);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Cart_coords)

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  ApiCall c("MPI_Cart_rank");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_CART, cm, t)) return e;
  if (t->ndims() > 0 && !coords) return arg_error(c, comm, "null coords");
  if (!rank) return arg_error(c, comm, "null rank");
  const int r = t->cart_rank(coords);
  if (r < 0) {
    int i = 0;
    while (t->periods[static_cast<std::size_t>(i)] ||
           (coords[i] >= 0 && coords[i] < t->dims[static_cast<std::size_t>(i)]))
      ++i;
    return c.error(comm, MPI_ERR_ARG, "coordinate {} of non-periodic dimension {} is outside 0..{}",
                   coords[i], i, t->dims[static_cast<std::size_t>(i)] - 1);
  }
  *rank = r;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Cart_rank)

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  ApiCall c("MPI_Cart_shift");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_CART, cm, t)) return e;
  if (t->ndims() == 0)
    return c.error(comm, MPI_ERR_TOPOLOGY, "{} has a zero-dimensional grid", cm->label());
  if (direction < 0 || direction >= t->ndims())
    return c.error(comm, MPI_ERR_ARG, "direction {} is not a dimension (0..{})", direction,
                   t->ndims() - 1);
  if (!rank_source || !rank_dest) return arg_error(c, comm, "null rank_source or rank_dest");
  const int me = my_rank(c, *cm);
  *rank_source = t->cart_neighbor(me, direction, -static_cast<long long>(disp));
  *rank_dest = t->cart_neighbor(me, direction, disp);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Cart_shift)

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  ApiCall c("MPI_Cart_get");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_CART, cm, t)) return e;
  if (maxdims < t->ndims())
    return c.error(comm, MPI_ERR_ARG, "maxdims {} is less than the {} dimensions", maxdims,
                   t->ndims());
  if (t->ndims() > 0 && (!dims || !periods || !coords))
    return arg_error(c, comm, "null dims, periods or coords");
  for (int i = 0; i < t->ndims(); ++i) {
    dims[i] = t->dims[static_cast<std::size_t>(i)];
    periods[i] = t->periods[static_cast<std::size_t>(i)];
  }
  t->cart_coords(my_rank(c, *cm), coords);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Cart_get)

int PMPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  ApiCall c("MPI_Cartdim_get");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_CART, cm, t)) return e;
  if (!ndims) return arg_error(c, comm, "null ndims");
  *ndims = t->ndims();
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Cartdim_get)

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  ApiCall c("MPI_Cart_map");
  Comm* cm;
  int nodes;
  if (int e = c.check_intracomm(comm, cm)) return e;
  if (int e = check_grid(c, comm, *cm, ndims, dims, periods, nodes)) return e;
  if (!newrank) return arg_error(c, comm, "null newrank");
  const int me = my_rank(c, *cm);
  *newrank = me < nodes ? me : MPI_UNDEFINED;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Cart_map)

int PMPI_Topo_test(MPI_Comm comm, int* status) {
  ApiCall c("MPI_Topo_test");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (!status) return arg_error(c, comm, "null status");
  // An intercommunicator has no topology (MPI_UNDEFINED, as MPICH answers).
  *status = !cm->inter() && cm->topology ? cm->topology->kind : MPI_UNDEFINED;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Topo_test)

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int /*reorder*/, MPI_Comm* comm_graph) {
  ApiCall c("MPI_Graph_create");
  Comm* cm;
  if (int e = c.check_intracomm(comm_old, cm)) return e;
  if (int e = check_graph(c, comm_old, *cm, nnodes, index, edges)) return e;
  if (!comm_graph) return arg_error(c, comm_old, "null comm_graph");
  c.collective(comm_old);
  const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
  int e = MPI_SUCCESS;
  if (nnodes == 0) { // every rank knows that no one is a member: nothing to agree on
    *comm_graph = MPI_COMM_NULL;
  } else {
    auto topo = std::make_shared<Topology>();
    topo->kind = MPI_GRAPH;
    topo->index.assign(index, index + nnodes);
    topo->edges.assign(edges, edges + nedges);
    e = create_comm(c, *cm, first_members(*cm, c.r, nnodes), std::move(topo), comm_graph);
  }
  MPISIM_RECORD_OP(c, "graph_create", CommArg{comm_old}, IntsArg{nnodes, index},
                   IntsArg{nedges, edges}, NewCommArg{*comm_graph});
  return e;
}
MPISIM_WEAK_ALIAS(Graph_create)

int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  ApiCall c("MPI_Graphdims_get");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_GRAPH, cm, t)) return e;
  if (!nnodes || !nedges) return arg_error(c, comm, "null nnodes or nedges");
  *nnodes = static_cast<int>(t->index.size());
  *nedges = static_cast<int>(t->edges.size());
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Graphdims_get)

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  ApiCall c("MPI_Graph_get");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_GRAPH, cm, t)) return e;
  const int ni = std::min(maxindex, static_cast<int>(t->index.size()));
  const int ne = std::min(maxedges, static_cast<int>(t->edges.size()));
  if ((ni > 0 && !index) || (ne > 0 && !edges)) return arg_error(c, comm, "null index or edges");
  std::copy_n(t->index.begin(), std::max(ni, 0), index);
  std::copy_n(t->edges.begin(), std::max(ne, 0), edges);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Graph_get)

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  ApiCall c("MPI_Graph_neighbors_count");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_GRAPH, cm, t)) return e;
  if (rank < 0 || rank >= static_cast<int>(t->index.size()))
    return c.error(comm, MPI_ERR_RANK, "invalid rank {} (the graph has {} nodes)", rank,
                   t->index.size());
  if (!nneighbors) return arg_error(c, comm, "null nneighbors");
  *nneighbors = t->graph_degree(rank);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Graph_neighbors_count)

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  ApiCall c("MPI_Graph_neighbors");
  Comm* cm;
  const Topology* t;
  if (int e = check_topology(c, comm, MPI_GRAPH, cm, t)) return e;
  if (rank < 0 || rank >= static_cast<int>(t->index.size()))
    return c.error(comm, MPI_ERR_RANK, "invalid rank {} (the graph has {} nodes)", rank,
                   t->index.size());
  const int n = std::min(maxneighbors, t->graph_degree(rank));
  if (n > 0 && !neighbors) return arg_error(c, comm, "null neighbors");
  std::copy_n(t->edges.begin() + t->graph_first(rank), std::max(n, 0), neighbors);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Graph_neighbors)

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  ApiCall c("MPI_Graph_map");
  Comm* cm;
  if (int e = c.check_intracomm(comm, cm)) return e;
  if (int e = check_graph(c, comm, *cm, nnodes, index, edges)) return e;
  if (!newrank) return arg_error(c, comm, "null newrank");
  const int me = my_rank(c, *cm);
  *newrank = me < nnodes ? me : MPI_UNDEFINED;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Graph_map)

} // extern "C"
