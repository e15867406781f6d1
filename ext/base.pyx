# The Splendor base-game core: the whole state in one fixed-size struct (BState, base.pxd),
# move generation and apply as noexcept nogil C functions, and CoreState, the Python face
# that satisfies the State protocol of splendor_ai/games/state.py.
#
# The rules are those of splendor_ai/games/base/reference.py (the executable specification);
# the parity test (tests/test_parity.py) compares the two after every action. What the
# base game shares with Marvel (taking, reserving, buying and paying, hidden cards, the
# rollout's take weights) is the card-game layer, ext/cards.pxd; this file holds the base
# game's own rules: nobles, the end trigger, the winners, and its heuristics.
from libc.math cimport exp
from libc.stdint cimport int8_t, int32_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from rng cimport Rng, rng_seed, rng_below, rng_uniform
from base cimport *
from cards cimport *
from game cimport GameDef, game_def_init

from splendor_ai.games.base import spec as _spec

# ---------------------------------------------------------------------------- tables
cdef CardTables CT                      # the cards and the shared layout (cards.pxd)
cdef int8_t N_REQ[B_NNOBLES][5]


cdef void _init_tables():
    cdef int c
    cg_init_tables(&CT, _spec)
    for noble in _spec.NOBLES:
        for c in range(5):
            N_REQ[noble.id][c] = noble.requires[c]


_init_tables()
cdef BState _LAYOUT
cg_check_layout(&_LAYOUT)

# ---------------------------------------------------------------------------- moves
cdef inline int _total(const BPlayer* p) noexcept nogil:
    return p.tokens[0] + p.tokens[1] + p.tokens[2] + p.tokens[3] + p.tokens[4] + p.tokens[5]


cdef int _phase_actions(const BState* s, int* out, bint all_payments) noexcept nogil:
    cdef const BPlayer* p = &s.p[s.current]
    cdef int n = 0, k
    if s.phase == PH_MAIN:
        return cg_main_actions(s, p, &CT, out, all_payments, B_GOLD, A_PASS, A_BUY)
    if s.phase == PH_RETURN:
        for k in range(6):
            if p.tokens[k] > 0:
                out[n] = CA_RETURN + k
                n += 1
        return n
    if s.phase == PH_NOBLE:
        return cg_piece_actions(p, s.nobles, s.n_nobles, N_REQ, A_NOBLE, out)
    return 0


cdef int b_search_actions(const void* s, int* out) noexcept nogil:
    return _phase_actions(<const BState*>s, out, False)


cdef int b_legal_actions(const void* s, int* out) noexcept nogil:
    return _phase_actions(<const BState*>s, out, True)


# ---------------------------------------------------------------------------- apply
cdef void _take_noble(BState* s, BPlayer* p, int nid) noexcept nogil:
    s.n_nobles = cg_remove_piece(s.nobles, s.n_nobles, nid)
    p.nobles |= <uint16_t>(1 << nid)
    p.points += 3


cdef void _finish_turn(BState* s, bint pass_without_noble) noexcept nogil:
    """End trigger, then the next seat (or the end of the game)."""
    if s.p[s.current].points >= 15:
        s.final_round = 1
    cg_next_turn(s, pass_without_noble)
    if (s.final_round and s.current == (s.start + s.n_players - 1) % s.n_players) or s.passes >= s.n_players:
        s.phase = PH_OVER
    else:
        s.current = (s.current + 1) % s.n_players
        s.phase = PH_MAIN


cdef void _noble_step(BState* s, bint was_pass) noexcept nogil:
    cdef int found = -1
    cdef int count = cg_qualifying(&s.p[s.current], s.nobles, s.n_nobles, N_REQ, &found)
    if count == 0:
        _finish_turn(s, was_pass)
    elif count == 1:
        _take_noble(s, &s.p[s.current], found)
        _finish_turn(s, False)
    else:
        s.phase = PH_NOBLE


cdef void b_apply(void* state, int a) noexcept nogil:
    cdef BState* s = <BState*>state
    cdef BPlayer* p = &s.p[s.current]
    cdef int t, cid
    if s.phase == PH_RETURN:
        cg_return_token(s, p, a - CA_RETURN)
        if _total(p) <= 10:
            _noble_step(s, False)
        return
    if s.phase == PH_NOBLE:
        _take_noble(s, p, a - A_NOBLE)
        _finish_turn(s, False)
        return
    if not cg_apply_take_or_reserve(s, p, &CT, a, B_GOLD) and a >= A_BUY:
        t = (a - A_BUY) // CG_NPAY
        cid = cg_target_card(s, t)
        cg_pay(s, p, &CT, cid, (a - A_BUY) - t * CG_NPAY, B_GOLD)
        cg_gain_card(s, p, &CT, t, cid)
    # A_PASS: nothing to do.
    if _total(p) > 10:
        s.phase = PH_RETURN
    else:
        _noble_step(s, a == A_PASS)


cdef void b_returns(const void* state, double* out) noexcept nogil:
    """Most points win; a tie goes to the fewest cards; still tied, a shared win."""
    cdef const BState* s = <const BState*>state
    cdef int i, best = -1, fewest = 1000, winners = 0
    for i in range(s.n_players):
        out[i] = 0.0
    if s.phase != PH_OVER:
        return
    for i in range(s.n_players):
        if s.p[i].points > best or (s.p[i].points == best and s.p[i].n_cards < fewest):
            best = s.p[i].points
            fewest = s.p[i].n_cards
    for i in range(s.n_players):
        winners += s.p[i].points == best and s.p[i].n_cards == fewest
    for i in range(s.n_players):
        if s.p[i].points == best and s.p[i].n_cards == fewest:
            out[i] = 1.0 / winners


cdef void b_resample(void* state, int seat, Rng* rng) noexcept nogil:
    cg_resample(<BState*>state, &CT, seat, rng)


# ---------------------------------------------------------------------------- heuristics
# Used by the search (through GAME_DEF): a cheap evaluation at rollout cut-offs, the rollout
# policy (one action per call, drawn by weight) and the tree's priors. Their weights are documented in docs/search.md.
cdef double EVAL_TEMPERATURE = 1.6   # points; softmax of the seat values
cdef double EVAL_BONUS = 0.45         # one permanent bonus, in points
cdef double EVAL_GEM = 0.12
cdef double EVAL_GOLD = 0.2
cdef double EVAL_NOBLE = 2.0          # a noble fully in reach (scaled by progress squared)


cdef double _seat_value(const BState* s, int i) noexcept nogil:
    cdef const BPlayer* p = &s.p[i]
    cdef double v = p.points, prog, need, have
    cdef int c, j, b = 0
    for c in range(5):
        b += p.bonus[c] if p.bonus[c] < 6 else 6
    v += EVAL_BONUS * b
    v += EVAL_GEM * (p.tokens[0] + p.tokens[1] + p.tokens[2] + p.tokens[3] + p.tokens[4])
    v += EVAL_GOLD * p.tokens[B_GOLD]
    for j in range(s.n_nobles):
        need = 0
        have = 0
        for c in range(5):
            need += N_REQ[s.nobles[j]][c]
            have += p.bonus[c] if p.bonus[c] < N_REQ[s.nobles[j]][c] else N_REQ[s.nobles[j]][c]
        prog = have / need
        v += EVAL_NOBLE * prog * prog * prog
    return v


cdef void b_evaluate(const void* state, double* out) noexcept nogil:
    cg_evaluate(<const BState*>state, out, _seat_value, b_returns, EVAL_TEMPERATURE)


cdef double _reserve_weight(const void* p, int cid) noexcept nogil:
    return 0.1 + 0.1 * CT.points[cid]


cdef double _buy_weight(const void* p, int cid) noexcept nogil:
    """Buying first, more for points."""
    return 6.0 + 4.0 * CT.points[cid]


cdef inline void _action_weights(const BState* s, const int* acts, int n, double* w) noexcept nogil:
    """A positive weight per action (cg_action_weights): buying first (more for points), then
    useful gems."""
    cg_action_weights(s, &s.p[s.current], &CT, acts, n, w, B_GOLD, A_PASS, A_BUY, NULL, _reserve_weight, _buy_weight)


cdef int b_rollout_action(const void* state, Rng* rng) noexcept nogil:
    """The rollout policy: one action drawn by the weights of _action_weights."""
    cdef const BState* s = <const BState*>state
    return cg_rollout_action(s, &s.p[s.current], &CT, rng, b_search_actions, False, B_GOLD, A_PASS, A_BUY,
                             NULL, _reserve_weight, _buy_weight)


cdef void b_priors(const void* state, const int* acts, int n, float* out) noexcept nogil:
    cdef double w[B_MAX_SEARCH_ACTIONS]
    _action_weights(<const BState*>state, acts, n, w)
    cg_normalise(w, n, out)


include "base_features.pxi"

cdef GameDef GAME_DEF  # the core's entry in the search's table (game.pxd); game_def() hands it out
game_def_init(&GAME_DEF, "base", sizeof(BState), B_MAX_SEARCH_ACTIONS, A_NUM, B_MAX_PLAYERS, cg_n_players,
              cg_current_player, b_search_actions, b_apply, b_returns, b_resample, b_evaluate, b_rollout_action,
              b_priors, B_NUM_FEATURES, B_POLICY_SIZE, b_features, b_policy_index)


# ---------------------------------------------------------------------------- Python face
ctypedef BState CardStateT
include "coreface.pxi"
include "cardface.pxi"


cdef void _read_seat(BPlayer* p, seat):
    cdef int cid
    cg_read_seat(p, seat, B_KINDS)
    for cid in seat["cards"]:
        cg_own_card(p, &CT, cid)
    for nid in seat["nobles"]:
        p.nobles |= <uint16_t>(1 << nid)
        p.points += 3


cdef class CoreState(CardCoreState):
    """A base-game state in the Cython core (see splendor_ai/games/state.py for the API;
    what the cores share: CoreFace, ext/coreface.pxi, and CardCoreState, ext/cardface.pxi)."""

    _kinds = B_KINDS
    _buy = A_BUY

    def __cinit__(self):
        self.all_actions = b_legal_actions

    cdef _read_own(self, pos):
        cdef int i
        self.s.n_nobles = len(pos["nobles"])
        for i in range(B_MAX_NOBLES):
            self.s.nobles[i] = pos["nobles"][i] if i < self.s.n_nobles else -1
        for i, seat in enumerate(pos["seats"]):
            _read_seat(&self.s.p[i], seat)

    cdef dict _own_fields(self):
        return {"nobles": [self.s.nobles[j] for j in range(self.s.n_nobles)]}

    cdef dict _own_seat_fields(self, int seat):
        return {"nobles": [j for j in range(B_NNOBLES) if (self.s.p[seat].nobles >> j) & 1]}
