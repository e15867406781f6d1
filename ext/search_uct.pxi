# The heuristic search's iteration (included by search.pyx; Params.net is NULL).
#
# One iteration: copy the root state, redraw what the searching seat cannot see (resample),
# descend the tree by UCB over the actions legal in this determinization (a child's
# "availability" counts the visits of its parent in which it was legal), expand one action
# (in order of the game's prior), roll out with the game's policy for at most `rollout_depth`
# actions, score the end with the game's returns or its evaluation, and back up per seat:
# each node accumulates the value of the seat that chose its action, and whether the game
# ended right after that action with one result (Node.proof).

cdef void _iterate(const GameDef* g, Tree* t, const char* root, char* work, const Params* P,
                   int* acts, float* priors, int32_t* path) noexcept nogil:
    cdef int depth = 0, n, i, player, best_i, steps
    cdef int32_t node = 0, child, prev, best_child, c
    cdef double values[MAX_SEATS]
    cdef double score, best_score, logn
    cdef Node* nd
    cdef bint expanded = False
    cdef bint ended
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
    # -- rollout (none when the last action on the path ended the game: its result is exact)
    ended = g.current_player(work) < 0
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
    _backup(t, path, depth, values, nseats, ended)
