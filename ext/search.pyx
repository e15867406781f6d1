# Information-set Monte Carlo tree search (single observer), generic over games through the
# GameDef of game.pxd. The tree loop runs without the GIL; several trees (root parallelism,
# one RNG stream each) can be searched at once from several Python threads.
#
# One extension module, written in four files by concern (textual includes, so that the
# C-level functions stay `noexcept nogil` and inline across files):
#   search_tree.pxi   the tree: nodes, edges, parameters, arenas, children, backup
#   search_uct.pxi    the heuristic search's iteration (UCB, rollouts with the game's policy)
#   search_puct.pxi   the net search's iteration (PUCT with the learned net)
#   search.pyx        (here) the loop of one tree, and the Python-facing TreeSearch
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from libc.math cimport sqrt, log, exp, cos, pow, fabs
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

include "search_tree.pxi"
include "search_uct.pxi"
include "search_puct.pxi"


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
        t.stopped = STOP_OUT_OF_MEMORY
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
                t.stopped = STOP_CANCELLED
                break
            if P.deadline > 0 and (t.iterations & 15) == 0 and _now() >= P.deadline:
                t.stopped = STOP_TIME
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
            t.nodes[0].proof = PROOF_NONE

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
        if t.stopped == STOP_OUT_OF_MEMORY:
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
            "cancelled": STOP_CANCELLED in stopped,
            "out_of_time": STOP_TIME in stopped,
            "stopped": sorted(stopped),
        }

    def forced_wins(self, int depth=1, int samples=2):
        """{action: k} for the root actions that win within the turn whatever the search does
        elsewhere, found exhaustively (not by sampling): the action ends the game with the seat
        to act's win (k = 0), or leaves it to act again with a win `k` more of its own moves
        away (k <= depth), on each of `samples` redraws of what the seat cannot see (on the state
        as it is when the search does not determinize)."""
        cdef int seat = self.P.seat, n, i, j, k, p, rounds = samples if self.P.determinize else 1
        cdef int sz = self.g.state_size
        cdef char* root = <char*>malloc(sz)
        cdef char* buf = <char*>malloc((depth + 2) * sz)
        cdef int* acts = <int*>malloc((depth + 2) * MAX_ACTIONS * sizeof(int))
        cdef double vals[MAX_SEATS]
        cdef Rng rng
        if root == NULL or buf == NULL or acts == NULL:
            free(root); free(buf); free(acts)
            raise MemoryError()
        found = None
        rng_seed(&rng, 0x5EED0F71)
        try:
            for j in range(rounds):
                memcpy(root, <const char*>self.root, sz)
                if self.P.determinize:
                    self.g.resample(root, seat, &rng)
                n = self.g.legal_actions(root, acts)
                if self.P.n_root > 0:
                    n = _keep_allowed(acts, n, self.P.root_actions, self.P.n_root)
                now = {}
                for i in range(n):
                    memcpy(buf, root, sz)
                    self.g.apply(buf, acts[i])
                    p = self.g.current_player(buf)
                    k = -1
                    if p < 0:
                        self.g.returns(buf, vals)
                        if vals[seat] >= 1.0:
                            k = 0
                    elif p == seat and depth > 0:
                        with nogil:
                            k = _win_line(self.g, buf, seat, depth - 1, buf + sz, acts + MAX_ACTIONS)
                        if k >= 0:
                            k += 1
                    if k >= 0:
                        now[acts[i]] = k
                # a win only where every redraw has it, at its longest
                found = now if found is None else {a: max(k, now[a]) for a, k in found.items() if a in now}
        finally:
            free(root)
            free(buf)
            free(acts)
        return found or {}

    def root_wins(self, int limit=4):
        """{action: k} for the root actions that lead to a proven win of the seat to act: k = 0
        when the action ends the game with its win (every visit through it did), k > 0 when k
        more moves of the same seat, each chosen in the tree, reach such a win within the turn
        (in the tree that found the shortest)."""
        cdef int i, k
        cdef int32_t c
        cdef long long slot
        cdef Tree* t
        cdef ChildIter it
        out = {}
        for i in range(self.n_trees):
            t = &self.trees[i]
            _children_start(t, 0, &it)
            c = _children_next(t, &it, &slot)
            while c >= 0:
                k = _win_depth(t, c, limit)
                a = t.nodes[c].action
                if k >= 0 and (a not in out or k < out[a]):
                    out[a] = k
                c = _children_next(t, &it, &slot)
        return out

    def root_stats(self, int pv_length=8, bint proven=False):
        """Per root action, merged over the trees: (action, visits, value_sum, prior, pv), and
        with ``proven=True`` a sixth item: the action's exact value for the seat to act when it
        is proven to end the game with that result (every visit through it, in every tree that
        has it, ended the game at once with that value), else None.

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
                    entry = merged[a] = [0, 0.0, 0.0, 0, -1, None, nodes[c].proof]
                entry[0] += nodes[c].visits
                entry[1] += nodes[c].value
                entry[2] += nodes[c].prior
                entry[3] += 1
                if entry[6] != nodes[c].proof:
                    entry[6] = PROOF_OPEN
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
        if not proven:
            return [(a, e[0], e[1], e[2] / e[3], e[5]) for a, e in sorted(merged.items())]
        return [(a, e[0], e[1], e[2] / e[3], e[5], _proof_value(e[6])) for a, e in sorted(merged.items())]


cdef int _win_depth(const Tree* t, int32_t node, int limit) noexcept nogil:
    """How many more moves of the same seat after `node`'s action lead to a proven win of that
    seat (0: `node`'s action itself ends the game with its win), following only the children
    chosen by the same seat (Duel's privilege, then the buy that wins); -1 beyond `limit`."""
    cdef const Node* nd = &t.nodes[node]
    cdef ChildIter it
    cdef long long slot
    cdef int32_t c
    cdef int best = -1, k
    if nd.proof == PROOF_SCALE + 1:     # every visit ended the game at once with its win
        return 0
    if limit <= 0:
        return -1
    _children_start(t, node, &it)
    c = _children_next(t, &it, &slot)
    while c >= 0:
        if t.nodes[c].player == nd.player and t.nodes[c].visits > 0:
            k = _win_depth(t, c, limit - 1)
            if k >= 0 and (best < 0 or k + 1 < best):
                best = k + 1
        c = _children_next(t, &it, &slot)
    return best


cdef int _win_line(const GameDef* g, const char* s, int seat, int depth, char* buf, int* acts) noexcept nogil:
    """The length k of the shortest line of `seat`'s own moves from `s` (`seat` to act) that ends
    the game with its win: 0 when one move does it at once, k when a move leaves `seat` to act
    again and the rest takes k - 1 more; -1 when none within `depth` more moves. Exhaustive:
    every legal action at every step. `buf`: depth + 1 states of scratch, `acts`: depth + 1
    action lists."""
    cdef int n = g.legal_actions(s, acts), i, k, best = -1, p
    cdef double vals[MAX_SEATS]
    for i in range(n):
        memcpy(buf, s, g.state_size)
        g.apply(buf, acts[i])
        p = g.current_player(buf)
        if p < 0:
            g.returns(buf, vals)
            if vals[seat] >= 1.0:
                return 0
        elif p == seat and depth > 0:
            k = _win_line(g, buf, seat, depth - 1, buf + g.state_size, acts + MAX_ACTIONS)
            if k >= 0 and (best < 0 or k + 1 < best):
                best = k + 1
    return best


def _proof_value(int code):
    """A Node.proof code's value, or None when it proves nothing."""
    if PROOF_NONE < code <= PROOF_SCALE + 1:
        return (code - 1) / <double>PROOF_SCALE
    return None


NODE_BYTES = sizeof(Node)   # 32: a node's size, which the tree's budget counts in


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
