# PUCT with the learned net (included by search.pyx; Params.net is not NULL; docs/learned.md):
# the net's scratch buffers, the root's Dirichlet noise, the net's value and priors of a
# state, when a leaf is expanded under the node budget, and the net search's iteration.

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
    cdef bint ended = False     # the last action on the path ended the game (values: its returns)
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
            ended = True
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
    _backup(t, path, depth, values, nseats, ended)
