# Splendor Duel's search heuristics (included by duel.pyx after its rules): the evaluation at
# rollout cut-offs made for Duel's three victory paths, the rollout policy (one action per
# call, drawn by weight) and the tree's priors. The weights are documented in docs/duel.md.
from libc.math cimport exp

cdef double EVAL_TEMPERATURE = 2.5   # points; softmax of the two seat values
cdef double EVAL_CROWN = 1.2          # a crown, in points (10 crowns win)
cdef double EVAL_COLOR = 0.8          # a point in the seat's best colour (10 win), on top
cdef double EVAL_BONUS = 0.5          # one permanent bonus
cdef double EVAL_TOKEN = 0.15         # a gem or pearl held
cdef double EVAL_GOLD = 0.3
cdef double EVAL_PRIVILEGE = 0.35
cdef double EVAL_NEAR_WIN = 8.0       # times the cube of the progress on the closest path


cdef double _seat_value(const DState* s, int i) noexcept nogil:
    cdef const DPlayer* p = &s.p[i]
    cdef int c, best = 0, bonus = 0
    cdef double near, x
    for c in range(5):
        if p.color_points[c] > best:
            best = p.color_points[c]
        bonus += p.bonus[c] if p.bonus[c] < 4 else 4
    near = p.points / 20.0
    x = p.crowns / 10.0
    if x > near:
        near = x
    x = best / 10.0
    if x > near:
        near = x
    return (p.points + EVAL_CROWN * p.crowns + EVAL_COLOR * best + EVAL_BONUS * bonus
            + EVAL_TOKEN * (p.tokens[0] + p.tokens[1] + p.tokens[2] + p.tokens[3] + p.tokens[4] + p.tokens[5])
            + EVAL_GOLD * p.tokens[D_GOLD] + EVAL_PRIVILEGE * p.privileges
            + EVAL_NEAR_WIN * near * near * near)


cdef void d_evaluate(const void* state, double* out) noexcept nogil:
    """Per seat a win probability: a softmax of the seat values (the result once over)."""
    cdef const DState* s = <const DState*>state
    cdef double d
    if s.phase == PH_OVER:
        d_returns(state, out)
        return
    d = (_seat_value(s, 0) - _seat_value(s, 1)) / EVAL_TEMPERATURE
    out[0] = 1.0 / (1.0 + exp(-d))
    out[1] = 1.0 - out[0]


cdef void _needs(const DState* s, double* need) noexcept nogil:
    """Per token kind (5 gems, pearl), how much the cards within reach of the seat to act
    want it: each card missing 1..6 tokens shares (1 + points + crowns) among its missing kinds."""
    cdef const DPlayer* p = &s.p[s.current]
    cdef int t, k, cid, missing, gap
    cdef int held[6]
    cdef double share
    for k in range(6):
        need[k] = 0.0
    for t in range(D_PYRAMID + D_MAX_RES):
        cid = _target_card(s, t)
        if cid < 0 or not _can_buy_kind(p, cid):
            continue
        missing = _shortfall(p, cid, held) - p.tokens[D_GOLD]
        if missing <= 0 or missing > 6:
            continue
        share = (1.0 + C_POINTS[cid] + C_CROWNS[cid]) / missing
        for k in range(6):
            gap = C_COST[cid][k] - (p.bonus[k] if k < 5 else 0) - p.tokens[k]
            if gap > 0:
                need[k] += share


cdef void _action_weights(const DState* s, const int* acts, int n, double* w) noexcept nogil:
    """A positive weight per action: buying first (more for points and crowns), then tokens
    the cards within reach need; a line that hands the opponent a privilege weighs less."""
    cdef const DPlayer* p = &s.p[s.current]
    cdef double need[6]
    cdef int i, a, k, cid, line, pearls, c0
    cdef bint same
    _needs(s, need)
    for i in range(n):
        a = acts[i]
        if a < A_REPLENISH:
            w[i] = 0.1 + 0.5 * need[s.board[a - A_PRIVILEGE]]
        elif a == A_REPLENISH:
            w[i] = 0.15
        elif a < A_GOLD:
            line = a - A_TAKE
            w[i] = 0.3 + 0.2 * LINE_LEN[line]
            pearls = 0
            c0 = s.board[LINE_CELL[line][0]]
            same = LINE_LEN[line] == 3
            for k in range(LINE_LEN[line]):
                w[i] += need[s.board[LINE_CELL[line][k]]]
                if s.board[LINE_CELL[line][k]] == D_PEARL:
                    pearls += 1
                if s.board[LINE_CELL[line][k]] != c0:
                    same = False
            if same or pearls == 2:
                w[i] *= 0.6
        elif a < A_RESERVE:
            w[i] = 0.4
        elif a < A_RES_DECK:
            cid = s.pyramid[a - A_RESERVE]
            w[i] = 0.2 + 0.2 * (C_POINTS[cid] + C_CROWNS[cid])
        elif a < A_TOKEN:
            w[i] = 0.1
        elif a < A_STEAL:
            w[i] = 1.0
        elif a < A_JOKER:
            w[i] = 1.0 + need[a - A_STEAL]
        elif a < A_ROYAL:
            w[i] = 1.0 + p.color_points[a - A_JOKER] + 0.2 * p.bonus[a - A_JOKER]
        elif a < A_DISCARD:
            w[i] = 1.0 + R_POINTS[a - A_ROYAL] + (R_ABIL[a - A_ROYAL] & AB_EXTRA)
        elif a < A_PASS:
            k = a - A_DISCARD
            w[i] = 0.1 if k == D_GOLD else 0.2 + p.tokens[k] - need[k]
            if w[i] < 0.05:
                w[i] = 0.05
        elif a == A_PASS:
            w[i] = 1.0
        else:
            cid = _target_card(s, (a - A_BUY) // D_NPAY)
            w[i] = 6.0 + 4.0 * C_POINTS[cid] + 2.0 * C_CROWNS[cid] + 3.0 * (C_ABIL[cid] & AB_EXTRA)


cdef int d_rollout_action(const void* state, Rng* rng) noexcept nogil:
    """The rollout policy: one search action drawn by the weights of _action_weights."""
    cdef const DState* s = <const DState*>state
    cdef int acts[D_MAX_SEARCH_ACTIONS]
    cdef double w[D_MAX_SEARCH_ACTIONS]
    cdef int n = _actions(s, acts, False)
    if n == 1:
        return acts[0]
    _action_weights(s, acts, n, w)
    return cg_roulette(acts, w, n, rng, False)


cdef void d_priors(const void* state, const int* acts, int n, float* out) noexcept nogil:
    cdef double w[D_MAX_SEARCH_ACTIONS]
    _action_weights(<const DState*>state, acts, n, w)
    cg_normalise(w, n, out)
