# The search tree's memory (included by search.pyx): its sizes, nodes, edges, per-search
# parameters and per-tree state; growing the node and edge arenas under the node cap;
# walking, finding, copying and adding children; backing a value up a path.
# Everything here is C-level (`noexcept nogil`): the tree loop runs without the GIL.

cdef enum:
    MAX_SEATS = 4
    MAX_PATH = 1024
    MAX_ACTIONS = 512
    FIRST_CAPACITY = 4096
    REUSE_MAX_NODES = 1 << 17   # nodes a reused subtree keeps at most (about 4 MiB, a few ms)

cdef enum StopCode:
    # Why a tree stopped (Tree.stopped); splendor_ai.search.params.StopCode has the same numbers.
    STOP_RUNNING = 0        # running, or stopped by its iteration limit or its node cap
    STOP_CANCELLED = 1      # TreeSearch.cancel()
    STOP_TIME = 2           # the deadline passed
    STOP_OUT_OF_MEMORY = 3  # a scratch buffer could not be allocated (run_tree raises MemoryError)
    # Node.proof: whether the action is proven to end the game with one result for its chooser.
    PROOF_NONE = 0      # no visit yet
    PROOF_OPEN = 255    # some visit went on past the action, or two visits' results differed
    PROOF_SCALE = 120   # 1..121: every visit ended the game at once, with value (proof - 1) / 120

ctypedef struct Node:
    # A node's children: the ones whose action is in its edge block (net search) are reached
    # through their edges; the others form a list sorted by action, first_child and then
    # next_sibling (every child, in the heuristic search).
    int32_t first_child     # the list's first child, -1 none
    int32_t next_sibling    # -1 none
    uint32_t visits
    uint32_t avail          # parent visits in which this action was legal
    float value             # sum of the values backed up for `player`
    float prior
    int32_t edges           # net search: this node's block in the tree's edge arena, -1 none
    int16_t action
    int8_t player           # the seat that chose `action`
    uint8_t proof           # PROOF_*: the game ended right after `action` at every visit, how

ctypedef union EdgeSlot:
    float prior             # until the action is first chosen
    int32_t child           # then its node (which keeps the prior)

ctypedef struct Edge:
    # An expanded node's legal actions and priors (net search), sorted by action; a child
    # node exists only once its action has been chosen, and the edge then points at it, so
    # that selection reads a node's children from one contiguous block instead of chasing a
    # list. A block's first entry holds its length in `action`.
    int16_t action
    int16_t has_child
    EdgeSlot u

ctypedef struct Params:
    long long max_iterations    # per tree; <= 0 for no limit
    double deadline             # monotonic seconds; <= 0 for none
    long long max_nodes         # per tree
    int rollout_depth           # actions; < 0: play to the end (capped by rollout_cap)
    int rollout_cap
    double c_uct
    double prior_weight
    int determinize
    int seat
    int n_root              # > 0: only these actions are candidates at the root
    int* root_actions       # sorted
    # PUCT with the learned evaluation (net != NULL; docs/learned.md)
    const Net* net
    double c_puct
    double fpu_reduction
    int net_rollout_depth   # > 0: blend the net's value with a rollout this long
    double net_rollout_weight
    double root_noise       # share of Dirichlet noise in the root's priors (self-play)
    double noise_alpha

ctypedef struct Tree:
    Node* nodes
    long long n_nodes
    long long capacity
    Edge* edges
    long long n_edges
    long long edge_capacity
    long long iterations
    int node_limit_hit
    int stopped          # a StopCode
    int running          # set while run_tree searches this tree
    int pause_req        # a snapshot asks the tree to stop between iterations
    int paused           # the tree acknowledges (it touches nothing while paused)
    double seat_values[MAX_SEATS]
    Rng rng
    char pad[128]        # keeps trees searched by different threads off each other's cache lines


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline long long _used(const Tree* t) noexcept nogil:
    """The tree's size in node units (32 bytes): its nodes and its edges, four to a unit.
    Limits.max_nodes caps this."""
    return t.n_nodes + (t.n_edges + 3) // 4


cdef long long _new_edges(Tree* t, int n, const Params* P) noexcept nogil:
    """Room for n more edges: the index of the first, or -1 at the node cap."""
    cdef Edge* grown
    cdef long long cap, need = t.n_edges + n
    if t.n_nodes + (need + 3) // 4 > P.max_nodes or need > 0x7FFFFFFF:
        t.node_limit_hit = 1
        return -1
    if need > t.edge_capacity:
        cap = t.edge_capacity * 2 if t.edge_capacity > 0 else 4 * FIRST_CAPACITY
        while cap < need:
            cap *= 2
        if cap > 4 * P.max_nodes + MAX_ACTIONS:
            cap = 4 * P.max_nodes + MAX_ACTIONS
        grown = <Edge*>realloc(t.edges, cap * sizeof(Edge))
        if grown == NULL:
            t.node_limit_hit = 1
            return -1
        t.edges = grown
        t.edge_capacity = cap
    t.n_edges = need
    return need - n


cdef int32_t _new_node(Tree* t, const Params* P) noexcept nogil:
    cdef Node* grown
    cdef long long cap
    if _used(t) >= P.max_nodes:
        t.node_limit_hit = 1
        return -1
    if t.n_nodes >= t.capacity:
        cap = t.capacity * 2
        if cap > P.max_nodes:
            cap = P.max_nodes
        grown = <Node*>realloc(t.nodes, cap * sizeof(Node))
        if grown == NULL:
            t.node_limit_hit = 1
            return -1
        t.nodes = grown
        t.capacity = cap
    t.n_nodes += 1
    return <int32_t>(t.n_nodes - 1)


cdef int _keep_allowed(int* acts, int n, const int* allowed, int n_allowed) noexcept nogil:
    """Filters the sorted acts[0..n) to the sorted allowed set, in place; returns the count."""
    cdef int i = 0, j = 0, k = 0
    while i < n and j < n_allowed:
        if acts[i] < allowed[j]:
            i += 1
        elif acts[i] > allowed[j]:
            j += 1
        else:
            acts[k] = acts[i]
            k += 1
            i += 1
            j += 1
    return k


ctypedef struct ChildIter:
    # A node's children in action order: its edge block's children merged with its list.
    long long e
    long long e_end
    int32_t x


cdef inline void _children_start(const Tree* t, int32_t node, ChildIter* it) noexcept nogil:
    cdef int32_t block = t.nodes[node].edges
    it.x = t.nodes[node].first_child
    if block >= 0:
        it.e = block + 1
        it.e_end = it.e + t.edges[block].action
    else:
        it.e = it.e_end = 0


cdef inline int32_t _children_next(const Tree* t, ChildIter* it, long long* slot) noexcept nogil:
    """The next child in action order (-1: no more); slot: its edge, -1 for a listed child."""
    cdef int32_t c
    while it.e < it.e_end and not t.edges[it.e].has_child:
        it.e += 1
    if it.e < it.e_end and (it.x < 0 or t.edges[it.e].action < t.nodes[it.x].action):
        slot[0] = it.e
        it.e += 1
        return t.edges[slot[0]].u.child
    slot[0] = -1
    c = it.x
    if c >= 0:
        it.x = t.nodes[c].next_sibling
    return c


cdef int32_t _copy_subtree(Tree* t, const Tree* from_tree, int32_t i, const Params* P) noexcept nogil:
    """Copies node i of another tree and everything below it into t, children in action
    order; returns the new index (-1 when the node cap is reached: the copy then keeps what
    fitted, and an edge whose child did not fit gets its prior back)."""
    cdef const Node* src = from_tree.nodes
    cdef int32_t j = _new_node(t, P), c, k, prev = -1
    cdef long long e = -1, slot, s
    cdef int n_e
    cdef ChildIter it
    if j < 0:
        return -1
    t.nodes[j] = src[i]
    t.nodes[j].first_child = -1
    t.nodes[j].next_sibling = -1
    t.nodes[j].edges = -1
    if src[i].edges >= 0:
        n_e = from_tree.edges[src[i].edges].action + 1
        e = _new_edges(t, n_e, P)
        if e < 0:
            return j    # the cap: a leaf again, expanded anew when the search reaches it
        memcpy(&t.edges[e], &from_tree.edges[src[i].edges], n_e * sizeof(Edge))
        t.nodes[j].edges = <int32_t>e
    _children_start(from_tree, i, &it)
    c = _children_next(from_tree, &it, &slot)
    while c >= 0:
        k = _copy_subtree(t, from_tree, c, P)
        if k < 0:
            break
        if slot >= 0:
            t.edges[e + (slot - src[i].edges)].u.child = k
        elif prev < 0:
            t.nodes[j].first_child = k
        else:
            t.nodes[prev].next_sibling = k
        if slot < 0:
            prev = k
        c = _children_next(from_tree, &it, &slot)
    # What did not fit: the edges of the children left out are unchosen again.
    while c >= 0:
        if slot >= 0:
            s = e + (slot - src[i].edges)
            t.edges[s].has_child = 0
            t.edges[s].u.prior = src[c].prior
        c = _children_next(from_tree, &it, &slot)
    return j


cdef int32_t _find_child(const Tree* t, int32_t node, int action) noexcept nogil:
    cdef ChildIter it
    cdef long long slot
    cdef int32_t c
    _children_start(t, node, &it)
    c = _children_next(t, &it, &slot)
    while c >= 0 and t.nodes[c].action != action:
        c = _children_next(t, &it, &slot)
    return c


cdef inline uint8_t _proof_code(double v) noexcept nogil:
    """A game's end value for one seat as a Node.proof code: 1 + 120 v, exact for the values
    the games score (0, 1, and the shares 1/2, 1/3, 1/4 of a shared win); PROOF_OPEN for any
    other value, which is then never proven."""
    cdef double x = v * PROOF_SCALE
    cdef int k
    if not (0.0 <= v <= 1.0):
        return PROOF_OPEN
    k = <int>(x + 0.5)
    if fabs(x - k) > 1e-6:
        return PROOF_OPEN
    return <uint8_t>(1 + k)


cdef inline void _backup(Tree* t, const int32_t* path, int depth, const double* values,
                         int nseats, bint ended) noexcept nogil:
    """Per seat: each node on the path adds the value of the seat that chose its action; the
    root counts the visit and sums every seat's value. `ended`: the game was over right after
    the last node's action, and `values` are its returns. A node stays proven (Node.proof) only
    while every visit through it ended the game at once with the same value for its chooser:
    a node passed on the way down, or a leaf whose game went on (or scored otherwise), is open
    for good."""
    cdef int i
    cdef uint8_t code
    cdef Node* nd
    for i in range(1, depth):
        nd = &t.nodes[path[i]]
        nd.visits += 1
        nd.value += <float>values[nd.player]
        if i == depth - 1 and ended:
            code = _proof_code(values[nd.player])
            if nd.proof == PROOF_NONE:
                nd.proof = code
            elif nd.proof != code:
                nd.proof = PROOF_OPEN
        else:
            nd.proof = PROOF_OPEN
    t.nodes[0].visits += 1
    for i in range(nseats):
        t.seat_values[i] += values[i]
    t.iterations += 1


cdef int32_t _add_child(Tree* t, int32_t parent, int action, float prior, int player,
                        uint32_t avail, const Params* P, long long edge=-1) noexcept nogil:
    """A new child of `parent`: the child of edge `edge` (>= 0, an entry of the parent's
    block for `action`) or else in the parent's list, in action order; -1 at the node cap."""
    cdef int32_t c = _new_node(t, P), child, ins_prev = -1
    cdef Node* nd
    if c < 0:
        return -1
    nd = &t.nodes[c]
    nd.first_child = -1
    nd.edges = -1
    nd.action = <int16_t>action
    nd.visits = 0
    nd.avail = avail
    nd.value = 0
    nd.prior = prior
    nd.player = <int8_t>player
    nd.proof = PROOF_NONE
    if edge >= 0:
        nd.next_sibling = -1
        t.edges[edge].has_child = 1
        t.edges[edge].u.child = c
        return c
    child = t.nodes[parent].first_child
    while child >= 0 and t.nodes[child].action < action:
        ins_prev = child
        child = t.nodes[child].next_sibling
    nd.next_sibling = child
    if ins_prev < 0:
        t.nodes[parent].first_child = c
    else:
        t.nodes[ins_prev].next_sibling = c
    return c
