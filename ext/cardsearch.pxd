# The card-game layer's search heuristics (ext/cards.pxd is the rest of the layer), written
# once as inline noexcept nogil helpers over the base game's and Marvel's state blocks: the
# evaluation's softmax, the rollout policy and the tree's priors (the weights of taking,
# reserving, buying and returning, each game's own weights passed in), and for all three
# games the rollout's weighted draw and the priors' normalisation. The games' own weights and
# seat values stay in ext/<game>.pyx.
from libc.math cimport exp
from rng cimport Rng, rng_uniform
from cardids cimport *
from cards cimport (CardState, CardPlayer, CardTables, cg_power, cg_missing, cg_target_card,
                    cg_take_actions)


cdef inline void cg_softmax(double* out, int n, double temperature) noexcept nogil:
    """Seat values to win probabilities: a softmax at `temperature`."""
    cdef double best = -1e9, total = 0.0
    cdef int i
    for i in range(n):
        if out[i] > best:
            best = out[i]
    for i in range(n):
        out[i] = exp((out[i] - best) / temperature)
        total += out[i]
    for i in range(n):
        out[i] /= total


cdef inline void cg_evaluate(const CardState* s, double* out, double (*seat_value)(const CardState*, int) noexcept nogil,
                             void (*returns)(const void*, double*) noexcept nogil, double temperature) noexcept nogil:
    """GameDef.evaluate: the returns once the game is over, else a softmax at ``temperature``
    of each seat's value (the game's ``seat_value``)."""
    cdef int i
    if s.phase == CPH_OVER:
        returns(s, out)
        return
    for i in range(s.n_players):
        out[i] = seat_value(s, i)
    cg_softmax(out, s.n_players, temperature)


cdef inline void cg_needs(const CardState* s, const CardPlayer* p, const CardTables* T, double* need,
                          int* tcard, int* tmiss,
                          double (*appeal)(const void* p, int cid) noexcept nogil) noexcept nogil:
    """Per colour, how much the cards within reach (missing at most 6 tokens) want it,
    weighted by (1 + points + appeal) / missing (`appeal`: the game's, or NULL for none);
    and each target's card and missing count (`p`: the seat to act)."""
    cdef int pw[5]
    cdef int d[5]
    cdef int c, t, cid, missing
    cdef double share
    cg_power(p, pw)
    for c in range(5):
        need[c] = 0.0
    for t in range(15):
        cid = cg_target_card(s, t)
        tcard[t] = cid
        tmiss[t] = 0
        if cid < 0:
            continue
        missing = cg_missing(T, cid, pw, d)
        tmiss[t] = missing
        if missing == 0 or missing > 6:
            continue
        share = (1.0 + T.points[cid] + (appeal(p, cid) if appeal != NULL else 0.0)) / missing
        for c in range(5):
            if d[c] > 0:
                need[c] += share


cdef inline double cg_take_weight(const CardTables* T, const double* need, int a) noexcept nogil:
    """The weight cg_take_actions gives take action `a`."""
    if a < CA_TAKE2D:
        return 0.5 + need[T.take3[a][0]] + need[T.take3[a][1]] + need[T.take3[a][2]]
    if a < CA_TAKE1:
        a -= CA_TAKE2D
        return 0.4 + need[T.take2d_set[a][0]] + need[T.take2d_set[a][1]]
    if a < CA_TAKE2S:
        return 0.3 + need[a - CA_TAKE1]
    return 0.3 + 1.5 * need[a - CA_TAKE2S]


cdef inline double cg_return_weight(const CardPlayer* p, const double* need, int kind, int wild) noexcept nogil:
    """Returning a token: the wild kind last, then the colours the cards in reach need least."""
    cdef double x = 0.1 if kind == wild else 0.2 + p.tokens[kind] - (need[kind] if kind < 5 else 0)
    return x if x >= 0.05 else 0.05


cdef inline int cg_roulette(const int* acts, double* w, int n, Rng* rng, bint squared) noexcept nogil:
    """Draws an action with probability proportional to its weight (to its square when
    `squared`: the weights are squared in place)."""
    cdef double total = 0.0, x
    cdef int i
    for i in range(n):
        if squared:
            w[i] = w[i] * w[i]
        total += w[i]
    x = rng_uniform(rng) * total
    for i in range(n):
        x -= w[i]
        if x < 0:
            return acts[i]
    return acts[n - 1]


ctypedef double (*CardWeight)(const void* p, int cid) noexcept nogil   # p: the seat to act


cdef inline void cg_action_weights(const CardState* s, const CardPlayer* p, const CardTables* T, const int* acts,
                                   int n, double* w, int wild, int a_pass, int a_buy, CardWeight appeal,
                                   CardWeight reserve_weight, CardWeight buy_weight) noexcept nogil:
    """A positive weight per action (the rollout policy and the tree's priors): buying first
    (`buy_weight`), then the tokens the cards within reach want (cg_needs, with the game's
    `appeal`), reserving (`reserve_weight`); returns by what is needed least; the game's
    pieces and PASS alike."""
    cdef double need[5]
    cdef int tcard[15]
    cdef int tmiss[15]
    cdef int i, a, c
    for c in range(5):
        need[c] = 0.0
    if s.phase == CPH_MAIN:
        cg_needs(s, p, T, need, tcard, tmiss, appeal)
    for i in range(n):
        a = acts[i]
        if s.phase == CPH_RETURN:
            w[i] = cg_return_weight(p, need, a - CA_RETURN, wild)
        elif s.phase == CPH_PIECE or a == a_pass:
            w[i] = 1.0
        elif a >= a_buy:
            w[i] = buy_weight(p, cg_target_card(s, (a - a_buy) // CG_NPAY))
        elif a < CA_RES_BOARD:
            w[i] = cg_take_weight(T, need, a)
        elif a < CA_RES_DECK:
            w[i] = reserve_weight(p, s.board[(a - CA_RES_BOARD) >> 2][(a - CA_RES_BOARD) & 3])
        else:
            w[i] = 0.05


cdef inline int cg_rollout_action(const CardState* s, const CardPlayer* p, const CardTables* T, Rng* rng,
                                  int (*actions)(const void* s, int* out) noexcept nogil, bint squared,
                                  int wild, int a_pass, int a_buy, CardWeight appeal,
                                  CardWeight reserve_weight, CardWeight buy_weight) noexcept nogil:
    """The rollout policy: one action drawn by the weights of cg_action_weights (their
    squares when `squared`: greedier rollouts). In the main phase the moves and their weights
    are made in one pass over the 15 buy targets (the hot path of every rollout); the draw is
    the same as weighting the sorted search actions (`actions`) with cg_action_weights."""
    cdef int acts[CG_MAX_SEARCH_ACTIONS]
    cdef double w[CG_MAX_SEARCH_ACTIONS]
    cdef int tcard[15]
    cdef int tmiss[15]
    cdef double need[5]
    cdef int n, t, lv
    if s.phase != CPH_MAIN:
        n = actions(s, acts)
        cg_action_weights(s, p, T, acts, n, w, wild, a_pass, a_buy, appeal, reserve_weight, buy_weight)
        return cg_roulette(acts, w, n, rng, squared)
    cg_needs(s, p, T, need, tcard, tmiss, appeal)
    n = cg_take_actions(s, T, acts, need, w)
    if p.n_res < CG_MAX_RES:
        for t in range(12):
            if tcard[t] >= 0:
                acts[n] = CA_RES_BOARD + t
                w[n] = reserve_weight(p, tcard[t])
                n += 1
        for lv in range(3):
            if s.deck_len[lv] > 0:
                acts[n] = CA_RES_DECK + lv
                w[n] = 0.05
                n += 1
    for t in range(15):
        if tcard[t] >= 0 and tmiss[t] <= p.tokens[wild]:
            acts[n] = a_buy + t * CG_NPAY
            w[n] = buy_weight(p, tcard[t])
            n += 1
    if n == 0:
        acts[0] = a_pass
        w[0] = 1.0
        n = 1
    return cg_roulette(acts, w, n, rng, squared)


cdef inline void cg_normalise(const double* w, int n, float* out) noexcept nogil:
    """Weights to priors that sum to 1."""
    cdef double total = 0.0
    cdef int i
    for i in range(n):
        total += w[i]
    for i in range(n):
        out[i] = <float>(w[i] / total)


