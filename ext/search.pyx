# Information-set Monte Carlo tree search (single observer), generic over games through the
# GameDef of game.pxd. The tree loop runs without the GIL; several trees (root parallelism,
# one RNG stream each) can be searched at once from several Python threads.
#
# One iteration: copy the root state, redraw what the searching seat cannot see (resample),
# descend the tree by UCB over the actions legal in this determinization (a child's
# "availability" counts the visits of its parent in which it was legal), expand one action
# (in order of the game's prior), roll out with the game's policy for at most `rollout_depth`
# actions, score the end with the game's returns or its evaluation, and back up per seat:
# each node accumulates the value of the seat that chose its action.
from libc.stdint cimport int8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from libc.math cimport sqrt, log, exp, cos, pow
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid

cdef extern from "<sched.h>" nogil:
    int sched_yield()

cdef extern from * nogil:
    void __sync_synchronize()
    void __builtin_prefetch(const void* addr)

from rng cimport Rng, rng_seed, rng_below, rng_uniform
from game cimport GameDef
from nn cimport Net, nn_trunk, nn_value, nn_policy_logits

cdef enum:
    MAX_SEATS = 4
    MAX_PATH = 1024
    MAX_ACTIONS = 512
    FIRST_CAPACITY = 4096
    REUSE_MAX_NODES = 1 << 17   # nodes a reused subtree keeps at most (about 4 MiB, a few ms)

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
    int stopped          # 0 running/limit, 1 cancelled, 2 time
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


cdef inline void _backup(Tree* t, const int32_t* path, int depth, const double* values,
                         int nseats) noexcept nogil:
    """Per seat: each node on the path adds the value of the seat that chose its action; the
    root counts the visit and sums every seat's value."""
    cdef int i
    cdef Node* nd
    for i in range(1, depth):
        nd = &t.nodes[path[i]]
        nd.visits += 1
        nd.value += <float>values[nd.player]
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


cdef void _iterate(const GameDef* g, Tree* t, const char* root, char* work, const Params* P,
                   int* acts, float* priors, int32_t* path) noexcept nogil:
    cdef int depth = 0, n, i, player, best_i, steps
    cdef int32_t node = 0, child, prev, best_child, c
    cdef double values[MAX_SEATS]
    cdef double score, best_score, logn
    cdef Node* nd
    cdef bint expanded = False
    cdef int nseats = g.n_players(root)

    memcpy(work, root, g.state_size)
    if P.determinize:
        g.resample(work, P.seat, &t.rng)
    path[0] = 0
    depth = 1
    # -- selection and expansion
    while depth < MAX_PATH:
        player = g.current_player(work)
        if player < 0:
            break
        n = g.legal_actions(work, acts)
        if node == 0 and P.n_root > 0:
            n = _keep_allowed(acts, n, P.root_actions, P.n_root)
        # Walk the sorted children beside the sorted legal actions.
        child = t.nodes[node].first_child
        best_child = -1
        best_score = -1e300
        best_i = -1      # the legal action to expand, if any is not in the tree
        i = 0
        while i < n:
            while child >= 0 and t.nodes[child].action < acts[i]:
                child = t.nodes[child].next_sibling
            if child >= 0 and t.nodes[child].action == acts[i]:
                nd = &t.nodes[child]
                nd.avail += 1
                if nd.visits > 0:
                    logn = log(<double>nd.avail)
                    score = (nd.value / nd.visits + P.c_uct * sqrt(logn / nd.visits)
                             + P.prior_weight * nd.prior / (1.0 + nd.visits))
                    if score > best_score:
                        best_score = score
                        best_child = child
            elif best_i < 0:
                best_i = i
            i += 1
        if best_i >= 0 and _used(t) >= P.max_nodes:
            t.node_limit_hit = 1
        elif best_i >= 0:
            # Expand: the unexpanded legal action with the highest prior.
            g.priors(work, acts, n, priors)
            child = t.nodes[node].first_child
            best_i = -1
            i = 0
            while i < n:
                while child >= 0 and t.nodes[child].action < acts[i]:
                    child = t.nodes[child].next_sibling
                if not (child >= 0 and t.nodes[child].action == acts[i]):
                    if best_i < 0 or priors[i] > priors[best_i]:
                        best_i = i
                i += 1
            c = _add_child(t, node, acts[best_i], priors[best_i], player, 1, P)
            if c >= 0:
                g.apply(work, acts[best_i])
                path[depth] = c
                depth += 1
                break
        if best_child < 0:
            break   # nothing in the tree is legal here and nothing can be added: roll out
        g.apply(work, t.nodes[best_child].action)
        path[depth] = best_child
        depth += 1
        node = best_child
    # -- rollout
    steps = 0
    while g.current_player(work) >= 0:
        if P.rollout_depth >= 0 and steps >= P.rollout_depth:
            break
        if steps >= P.rollout_cap:
            break
        g.apply(work, g.rollout_action(work, &t.rng))
        steps += 1
    if g.current_player(work) < 0:
        g.returns(work, values)
    else:
        g.evaluate(work, values)
    _backup(t, path, depth, values, nseats)


# ---------------------------------------------------------------- PUCT with the learned net
ctypedef struct Scratch:
    float* feats        # g.num_features
    float* ha           # net.max_hidden, twice
    float* hb
    int32_t* cidx       # MAX_ACTIONS: the children legal in this iteration
    long long* eidx     # MAX_ACTIONS: a candidate without a child: its edge, -1 none
    int* cls            # MAX_ACTIONS: the legal actions' policy classes


cdef double _gamma(Rng* r, double alpha) noexcept nogil:
    """A Gamma(alpha, 1) variate (Marsaglia and Tsang; alpha < 1 through the U^(1/alpha) boost)."""
    cdef double d, c, x, v, u, boost = 1.0
    if alpha < 1.0:
        boost = pow(1.0 - rng_uniform(r), 1.0 / alpha)
        alpha += 1.0
    d = alpha - 1.0 / 3.0
    c = 1.0 / sqrt(9.0 * d)
    while True:
        x = sqrt(-2.0 * log(1.0 - rng_uniform(r))) * cos(6.283185307179586 * rng_uniform(r))
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = 1.0 - rng_uniform(r)
        if log(u) < 0.5 * x * x + d - d * v + d * log(v):
            return d * v * boost


cdef void _net_eval(const GameDef* g, const Params* P, const char* work, int player, int nseats,
                    const int* acts, int n, float* priors, double* values, Scratch* S) noexcept nogil:
    """The net's value of `work` per seat into values and, when priors is not NULL, its
    priors over acts[0..n) (a softmax of their classes' logits)."""
    cdef double rel[MAX_SEATS]
    cdef const float* h
    cdef int k, i
    cdef float m = -1e30
    cdef double total = 0.0
    g.features(work, S.feats)
    h = nn_trunk(P.net, S.feats, S.ha, S.hb)
    nn_value(P.net, h, nseats, rel)
    for k in range(nseats):
        values[(player + k) % nseats] = rel[k]
    if priors == NULL:
        return
    for i in range(n):
        S.cls[i] = g.policy_index(acts[i])
    nn_policy_logits(P.net, h, S.cls, n, priors)
    for i in range(n):
        if priors[i] > m:
            m = priors[i]
    for i in range(n):
        priors[i] = <float>exp(priors[i] - m)
        total += priors[i]
    for i in range(n):
        priors[i] = <float>(priors[i] / total)


cdef inline uint32_t _expand_need(const Tree* t, const Params* P) noexcept nogil:
    """Visits a leaf needs before it is expanded: none while under half the node budget is
    used, then max/(max - used) - 1 (1 at half, 3 at three quarters, 7 at seven eighths)."""
    cdef long long used = _used(t)
    cdef long long left = P.max_nodes - used
    if 2 * used < P.max_nodes:
        return 0
    if left <= 0:
        return 0xFFFFFFFF
    return <uint32_t>(P.max_nodes / left - 1)


cdef void _iterate_net(const GameDef* g, Tree* t, const char* root, char* work, const Params* P,
                       int* acts, float* priors, int32_t* path, Scratch* S) noexcept nogil:
    cdef int depth = 1, n, i, k, player, n_cand, steps, best_k
    cdef int32_t node = 0, child, c
    cdef long long e, e_end, block
    cdef double values[MAX_SEATS]
    cdef double roll[MAX_SEATS]
    cdef double score, best_score, q, fpu, vsum, noise_total, root_avail
    cdef long long nsum
    cdef uint32_t avail_new
    cdef float prior
    cdef Node* nd
    cdef int nseats = g.n_players(root)
    # c_puct is set for two seats. With n seats each one's win chance, and the gaps between
    # its moves' values, shrink toward 1/n, so the same exploration would swamp them: scale it
    # by 2/n (measured in 3- and 4-player games, BENCHMARKS.md).
    cdef double c_puct = P.c_puct * 2.0 / nseats

    memcpy(work, root, g.state_size)
    if P.determinize:
        g.resample(work, P.seat, &t.rng)
    path[0] = 0
    while True:
        player = g.current_player(work)
        if player < 0:
            g.returns(work, values)
            break
        n = g.legal_actions(work, acts)
        if node == 0 and P.n_root > 0:
            n = _keep_allowed(acts, n, P.root_actions, P.n_root)
        if t.nodes[node].edges < 0 or depth >= MAX_PATH:
            # A leaf: the net scores it and, room permitting, keeps its legal actions with
            # their priors as the node's edges (children are made when first chosen). Past
            # half the node budget a leaf must first earn visits (_expand_need), so a long
            # think keeps deepening where it looks.
            if (depth >= MAX_PATH or t.n_nodes + (t.n_edges + n + 4) // 4 > P.max_nodes
                    or (node != 0 and t.nodes[node].visits < _expand_need(t, P))):
                if depth < MAX_PATH and t.n_nodes + (t.n_edges + n + 4) // 4 > P.max_nodes:
                    t.node_limit_hit = 1
                _net_eval(g, P, work, player, nseats, acts, n, NULL, values, S)
            else:
                _net_eval(g, P, work, player, nseats, acts, n, priors, values, S)
                if node == 0 and P.root_noise > 0 and n > 1:
                    noise_total = 0.0
                    for i in range(n):
                        S.feats[i] = <float>_gamma(&t.rng, P.noise_alpha)
                        noise_total += S.feats[i]
                    for i in range(n):
                        priors[i] = <float>((1.0 - P.root_noise) * priors[i]
                                            + P.root_noise * S.feats[i] / noise_total)
                e = _new_edges(t, n + 1, P)
                if e >= 0:
                    t.edges[e].action = <int16_t>n
                    t.edges[e].has_child = 0
                    t.edges[e].u.prior = 0.0
                    for i in range(n):
                        t.edges[e + 1 + i].action = <int16_t>acts[i]
                        t.edges[e + 1 + i].has_child = 0
                        t.edges[e + 1 + i].u.prior = priors[i]
                    t.nodes[node].edges = <int32_t>e
                    if node == 0:
                        continue  # the root is only expanded: every iteration backs up a child
            if P.net_rollout_depth > 0:
                steps = 0
                while g.current_player(work) >= 0 and steps < P.net_rollout_depth:
                    g.apply(work, g.rollout_action(work, &t.rng))
                    steps += 1
                if g.current_player(work) < 0:
                    g.returns(work, roll)
                else:
                    g.evaluate(work, roll)
                for i in range(nseats):
                    values[i] = (1.0 - P.net_rollout_weight) * values[i] + P.net_rollout_weight * roll[i]
            break
        # Selection: walk the sorted edges (and the list of children outside them) beside
        # the sorted legal actions. A legal action without a child is a candidate child,
        # unvisited, with its edge's prior (an action legal in this determinization but new
        # to the node: an even share) and the availability of an action legal at every
        # visit so far.
        avail_new = t.nodes[node].visits + (1 if node == 0 else 0)
        child = t.nodes[node].first_child
        block = t.nodes[node].edges
        e = block + 1
        e_end = e + t.edges[block].action
        n_cand = 0
        vsum = 0.0
        nsum = 0
        for i in range(n):
            while e < e_end and t.edges[e].action < acts[i]:
                e += 1
            c = -1
            if e < e_end and t.edges[e].action == acts[i]:
                if t.edges[e].has_child:
                    c = t.edges[e].u.child
                else:
                    priors[n_cand] = t.edges[e].u.prior
                    S.eidx[n_cand] = e
            else:
                while child >= 0 and t.nodes[child].action < acts[i]:
                    child = t.nodes[child].next_sibling
                if child >= 0 and t.nodes[child].action == acts[i]:
                    c = child
                else:
                    priors[n_cand] = <float>(1.0 / n)
                    S.eidx[n_cand] = -1
            if c >= 0:
                nd = &t.nodes[c]
                nd.avail += 1
                if nd.visits > 0:
                    vsum += nd.value
                    nsum += nd.visits
                S.cidx[n_cand] = c
            else:
                S.cidx[n_cand] = -1 - i
            n_cand += 1
        if n_cand == 0:
            _net_eval(g, P, work, player, nseats, acts, n, NULL, values, S)
            break
        fpu = (vsum / nsum if nsum > 0 else 1.0 / nseats) - P.fpu_reduction
        best_k = -1
        best_score = -1e300
        for k in range(n_cand):
            if S.cidx[k] >= 0:
                nd = &t.nodes[S.cidx[k]]
                q = nd.value / nd.visits if nd.visits > 0 else fpu
                score = q + c_puct * nd.prior * sqrt(<double>nd.avail) / (1.0 + nd.visits)
            else:
                score = fpu + c_puct * priors[k] * sqrt(<double>avail_new)
            if score > best_score:
                best_score = score
                best_k = k
        c = S.cidx[best_k]
        if c < 0:
            i = -1 - c
            c = _add_child(t, node, acts[i], priors[best_k], player, avail_new, P, S.eidx[best_k])
            if c < 0:
                # The node cap: score this position instead of growing the tree.
                _net_eval(g, P, work, player, nseats, acts, n, NULL, values, S)
                break
        if t.nodes[c].edges >= 0:
            # The child's edges are read after its position's move generation: start
            # fetching their first 256 bytes now (prefetches do not fault past the arena).
            block = t.nodes[c].edges
            for k in range(0, 256, 64):
                __builtin_prefetch(<const char*>&t.edges[block] + k)
        g.apply(work, t.nodes[c].action)
        path[depth] = c
        depth += 1
        node = c
    _backup(t, path, depth, values, nseats)


cdef void _run(const GameDef* g, Tree* t, const char* root, const Params* P, int* cancel) noexcept nogil:
    cdef char* work = <char*>malloc(g.state_size)
    cdef int* acts = <int*>malloc(MAX_ACTIONS * sizeof(int))
    cdef float* priors = <float*>malloc(MAX_ACTIONS * sizeof(float))
    cdef int32_t* path = <int32_t*>malloc(MAX_PATH * sizeof(int32_t))
    cdef Scratch S
    memset(&S, 0, sizeof(Scratch))
    if P.net != NULL:
        # feats doubles as the root noise's buffer: at least MAX_ACTIONS floats
        S.feats = <float*>malloc((g.num_features + MAX_ACTIONS) * sizeof(float))
        S.ha = <float*>malloc(2 * P.net.max_hidden * sizeof(float))
        S.hb = S.ha + P.net.max_hidden if S.ha != NULL else NULL
        S.cidx = <int32_t*>malloc(MAX_ACTIONS * sizeof(int32_t))
        S.eidx = <long long*>malloc(MAX_ACTIONS * sizeof(long long))
        S.cls = <int*>malloc(MAX_ACTIONS * sizeof(int))
    if (work == NULL or acts == NULL or priors == NULL or path == NULL
            or (P.net != NULL and (S.feats == NULL or S.ha == NULL or S.cidx == NULL
                                   or S.eidx == NULL or S.cls == NULL))):
        t.stopped = 3
    else:
        while True:
            if t.pause_req:
                t.paused = 1
                __sync_synchronize()
                while t.pause_req:
                    sched_yield()
                    __sync_synchronize()
                t.paused = 0
            if P.max_iterations > 0 and t.iterations >= P.max_iterations:
                break
            if cancel[0]:
                t.stopped = 1
                break
            if P.deadline > 0 and (t.iterations & 15) == 0 and _now() >= P.deadline:
                t.stopped = 2
                break
            if P.net != NULL:
                _iterate_net(g, t, root, work, P, acts, priors, path, &S)
            else:
                _iterate(g, t, root, work, P, acts, priors, path)
    free(S.feats)
    free(S.ha)
    free(S.cidx)
    free(S.eidx)
    free(S.cls)
    free(work)
    free(acts)
    free(priors)
    free(path)
    __sync_synchronize()
    t.running = 0


cdef class TreeSearch:
    """One search: `trees` independent trees over the same root (root parallelism).

    `run_tree(i)` searches tree i without the GIL (call it from one thread per tree);
    `cancel()` stops every tree within one iteration; `root_stats()` merges the trees.
    """

    cdef const GameDef* g
    cdef Params P
    cdef bytes root
    cdef Tree* trees
    cdef int n_trees
    cdef int cancel_flag
    cdef object game_def_ref
    cdef object net_ref
    cdef long long _iterations

    def __cinit__(self, game_def, bytes root_state, int seat, int trees=1, long long iterations=0,
                  double seconds=0.0, long long max_nodes=1000000, int rollout_depth=20,
                  int rollout_cap=1000, double c_uct=0.4, double prior_weight=3.0,
                  bint determinize=True, unsigned long long seed=0, root_actions=None,
                  TreeSearch reuse=None, int reuse_action=-1, net=None, double c_puct=1.5,
                  double fpu_reduction=0.1, int net_rollout_depth=0,
                  double net_rollout_weight=0.0, double root_noise=0.0, double noise_alpha=0.3):
        cdef int i
        cdef long long per_tree
        self.trees = NULL
        if not PyCapsule_IsValid(game_def, b"splendor_ai.GameDef"):
            raise TypeError("game_def must be a core's game_def() capsule")
        self.game_def_ref = game_def
        self.g = <const GameDef*>PyCapsule_GetPointer(game_def, b"splendor_ai.GameDef")
        if len(root_state) != self.g.state_size:
            raise ValueError("root state block has the wrong size for this game")
        if self.g.current_player(<const char*>root_state) < 0:
            raise ValueError("the game is over: nothing to search")
        if trees < 1:
            raise ValueError("trees must be at least 1")
        if max_nodes < 1:
            raise ValueError("max_nodes must be at least 1")
        self.root = root_state
        self.n_trees = trees
        self.cancel_flag = 0
        self.P.max_iterations = 0
        self.P.deadline = _now() + seconds if seconds > 0 else 0.0
        self.P.max_nodes = max_nodes
        self.P.rollout_depth = rollout_depth
        self.P.rollout_cap = rollout_cap
        self.P.c_uct = c_uct
        self.P.prior_weight = prior_weight
        self.P.determinize = determinize
        self.P.seat = seat
        self.P.n_root = 0
        self.P.root_actions = NULL
        self.P.net = NULL
        self.P.c_puct = c_puct
        self.P.fpu_reduction = fpu_reduction
        self.P.net_rollout_depth = net_rollout_depth
        self.P.net_rollout_weight = net_rollout_weight
        self.P.root_noise = root_noise
        self.P.noise_alpha = noise_alpha
        if net is not None:
            # `net` is the owner of the weights (splendor_ai._core.nn.NetCore): kept alive
            # here for as long as this search can read them.
            cap = net.capsule()
            if not PyCapsule_IsValid(cap, b"splendor_ai.Net"):
                raise TypeError("net must be a NetCore (its capsule() names splendor_ai.Net)")
            self.P.net = <const Net*>PyCapsule_GetPointer(cap, b"splendor_ai.Net")
            if self.g.features == NULL or self.g.policy_index == NULL:
                raise ValueError(f"the {self.g.name.decode()} core has no feature encoder")
            if (self.P.net.n_in != self.g.num_features or self.P.net.policy_size != self.g.policy_size
                    or self.P.net.max_players < self.g.n_players(<const char*>root_state)):
                raise ValueError("the net's shape does not fit this game's features, policy or seats")
            if not (0.0 <= root_noise <= 1.0 and noise_alpha > 0 and 0.0 <= net_rollout_weight <= 1.0):
                raise ValueError("root_noise and net_rollout_weight must be in [0, 1], noise_alpha > 0")
            self.net_ref = net
        if root_actions:
            allowed = sorted(set(int(a) for a in root_actions))
            self.P.root_actions = <int*>malloc(len(allowed) * sizeof(int))
            if self.P.root_actions == NULL:
                raise MemoryError()
            for i, a in enumerate(allowed):
                self.P.root_actions[i] = a
            self.P.n_root = len(allowed)
        self.trees = <Tree*>malloc(trees * sizeof(Tree))
        if self.trees == NULL:
            raise MemoryError()
        memset(self.trees, 0, trees * sizeof(Tree))
        self._iterations = iterations
        for i in range(trees):
            rng_seed(&self.trees[i].rng, seed + <unsigned long long>i * 0x9E3779B97F4A7C15ULL)
            self.trees[i].capacity = FIRST_CAPACITY if FIRST_CAPACITY < max_nodes else max_nodes
            self.trees[i].nodes = <Node*>malloc(self.trees[i].capacity * sizeof(Node))
            if self.trees[i].nodes == NULL:
                raise MemoryError()
            self.trees[i].n_nodes = 1
            memset(&self.trees[i].nodes[0], 0, sizeof(Node))
            self.trees[i].nodes[0].first_child = -1
            self.trees[i].nodes[0].next_sibling = -1
            self.trees[i].nodes[0].action = -1
            self.trees[i].nodes[0].player = -1
            self.trees[i].nodes[0].edges = -1
        if reuse is not None:
            self._reuse(reuse, reuse_action)

    cdef _reuse(self, TreeSearch old, int action):
        """Starts each tree from the subtree that `old`'s tree of the same index grew below
        `action` (the move just played from old's root)."""
        cdef int i
        cdef int32_t c
        cdef Tree* t
        # The copy holds the GIL and runs before the search: it keeps at most REUSE_MAX_NODES
        # node units (a long think's tree reaches millions, whose copy took longer than a
        # follow-up decision's whole budget).
        cdef Params copy_limits = self.P
        if copy_limits.max_nodes > REUSE_MAX_NODES:
            copy_limits.max_nodes = REUSE_MAX_NODES
        if old.n_trees != self.n_trees or old.g != self.g:
            raise ValueError("reuse: the previous search had another game or thread count")
        for i in range(self.n_trees):
            if old.trees[i].running:
                raise ValueError("reuse: the previous search is still running")
            c = _find_child(&old.trees[i], 0, action)
            if c < 0:
                continue
            t = &self.trees[i]
            t.n_nodes = 0
            t.n_edges = 0
            _copy_subtree(t, &old.trees[i], c, &copy_limits)
            t.node_limit_hit = 0
            t.nodes[0].action = -1
            t.nodes[0].player = -1
            t.nodes[0].next_sibling = -1

    def __dealloc__(self):
        cdef int i
        free(self.P.root_actions)
        if self.trees != NULL:
            for i in range(self.n_trees):
                free(self.trees[i].nodes)
                free(self.trees[i].edges)
            free(self.trees)

    def run_tree(self, int i):
        """Searches tree i until its share of the iterations, the deadline or a cancel."""
        cdef Tree* t
        cdef Params P = self.P
        cdef const char* root = self.root
        if not 0 <= i < self.n_trees:
            raise IndexError(i)
        t = &self.trees[i]
        if self._iterations > 0:
            P.max_iterations = self._iterations // self.n_trees + (1 if i < self._iterations % self.n_trees else 0)
            if P.max_iterations == 0:
                return
        t.running = 1
        with nogil:
            _run(self.g, t, root, &P, &self.cancel_flag)
        if t.stopped == 3:
            raise MemoryError("search: out of memory")

    def cancel(self):
        self.cancel_flag = 1

    def pause(self):
        """Holds every running tree between two iterations (for a consistent snapshot);
        `resume()` must follow. Trees that are not running are left alone."""
        cdef int i
        cdef Tree* t
        for i in range(self.n_trees):
            self.trees[i].pause_req = 1
        __sync_synchronize()
        for i in range(self.n_trees):
            t = &self.trees[i]
            with nogil:
                while t.running and not t.paused:
                    sched_yield()
                    __sync_synchronize()

    def resume(self):
        cdef int i
        for i in range(self.n_trees):
            self.trees[i].pause_req = 0
        __sync_synchronize()

    @property
    def cancelled(self):
        return bool(self.cancel_flag)

    def summary(self):
        """Totals over the trees: iterations, nodes, bytes, seat values, flags."""
        cdef int i, k
        cdef int nseats = self.g.n_players(<const char*>self.root)
        iterations = nodes = capacity = 0
        seat_values = [0.0] * nseats
        limit_hit = False
        stopped = set()
        for i in range(self.n_trees):
            iterations += self.trees[i].iterations
            nodes += self.trees[i].n_nodes
            capacity += self.trees[i].capacity * sizeof(Node) + self.trees[i].edge_capacity * sizeof(Edge)
            limit_hit = limit_hit or bool(self.trees[i].node_limit_hit)
            stopped.add(self.trees[i].stopped)
            for k in range(nseats):
                seat_values[k] += self.trees[i].seat_values[k]
        return {
            "iterations": iterations,
            "nodes": nodes,
            "tree_bytes": capacity,
            "seat_values": seat_values,
            "node_limit_hit": limit_hit,
            "cancelled": 1 in stopped,
            "out_of_time": 2 in stopped,
        }

    def root_stats(self, int pv_length=8):
        """Per root action, merged over the trees: (action, visits, value_sum, prior, pv).

        The principal variation is followed (most visits) in the tree that visited the
        action most, as a list of action ids starting with the action itself.
        """
        cdef int i
        cdef int32_t c, d, best
        cdef long long slot
        cdef Node* nodes
        cdef Tree* t
        cdef ChildIter it, sub
        merged = {}
        for i in range(self.n_trees):
            t = &self.trees[i]
            nodes = t.nodes
            _children_start(t, 0, &it)
            c = _children_next(t, &it, &slot)
            while c >= 0:
                a = nodes[c].action
                entry = merged.get(a)
                if entry is None:
                    entry = merged[a] = [0, 0.0, 0.0, 0, -1, None]
                entry[0] += nodes[c].visits
                entry[1] += nodes[c].value
                entry[2] += nodes[c].prior
                entry[3] += 1
                if nodes[c].visits > entry[4]:
                    entry[4] = nodes[c].visits
                    pv = [a]
                    d = c
                    while len(pv) < pv_length:
                        best = -1
                        _children_start(t, d, &sub)
                        d = _children_next(t, &sub, &slot)
                        while d >= 0:
                            if nodes[d].visits > 0 and (best < 0 or nodes[d].visits > nodes[best].visits):
                                best = d
                            d = _children_next(t, &sub, &slot)
                        if best < 0:
                            break
                        pv.append(nodes[best].action)
                        d = best
                    entry[5] = pv
                c = _children_next(t, &it, &slot)
        return [(a, e[0], e[1], e[2] / e[3], e[5]) for a, e in sorted(merged.items())]


def one_ply_action(game_def, bytes state):
    """The action whose result the game's own evaluation likes best for the seat to act
    (a finished game scores by its returns); ties go to the highest prior. The generic
    "greedy" bot of the games without a hand-written one."""
    cdef const GameDef* g
    cdef int acts[MAX_ACTIONS]
    cdef float priors[MAX_ACTIONS]
    cdef double values[MAX_SEATS]
    cdef int n, i, seat, best = -1
    cdef double v, best_v = -1.0
    cdef char* work
    if not PyCapsule_IsValid(game_def, b"splendor_ai.GameDef"):
        raise TypeError("game_def must be a core's game_def() capsule")
    g = <const GameDef*>PyCapsule_GetPointer(game_def, b"splendor_ai.GameDef")
    if len(state) != g.state_size:
        raise ValueError("state block has the wrong size for this game")
    seat = g.current_player(<const char*>state)
    if seat < 0:
        raise ValueError("the game is over")
    work = <char*>malloc(g.state_size)
    if work == NULL:
        raise MemoryError()
    n = g.legal_actions(<const char*>state, acts)
    g.priors(<const char*>state, acts, n, priors)
    for i in range(n):
        memcpy(work, <const char*>state, g.state_size)
        g.apply(work, acts[i])
        if g.current_player(work) < 0:
            g.returns(work, values)
        else:
            g.evaluate(work, values)
        v = values[seat] + 1e-6 * priors[i]
        if best < 0 or v > best_v:
            best, best_v = i, v
    free(work)
    return acts[best]
