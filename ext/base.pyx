# The Splendor base-game core: the whole state in one fixed-size struct (BState, base.pxd),
# move generation and apply as noexcept nogil C functions, and CoreState, the Python face
# that satisfies the State protocol of splendor_ai/games/state.py.
#
# The rules are those of splendor_ai/games/base/reference.py (the executable specification);
# the parity test (tests/test_parity.py) compares the two after every action. What the
# base game shares with Marvel (taking, reserving, buying and paying, the order of a turn,
# hidden cards, the rollout's take weights, the Python face) is the card-game layer:
# ext/cards.pxd, cardsearch.pxd and cardcore.pxi; this file holds the base game's own
# rules: nobles, the end trigger, the winners, and its heuristics.
from libc.stdint cimport int8_t, uint16_t
from base cimport *

from splendor_ai.games.base import spec as _spec

ctypedef BState CardStateT
include "cardcore.pxi"                  # what the base game shares with Marvel: CT, GAME_DEF, CardCoreState

# ---------------------------------------------------------------------------- tables
cdef int8_t N_REQ[B_NNOBLES][5]


cdef void _init_tables():
    cdef int c
    for noble in _spec.NOBLES:
        for c in range(5):
            N_REQ[noble.id][c] = noble.requires[c]


_init_tables()

# ---------------------------------------------------------------------------- moves
cdef int _phase_actions(const BState* s, int* out, bint all_payments) noexcept nogil:
    """The seat to act's actions (cards.pxd cg_phase_actions); cardcore.pxi hands them out."""
    return cg_phase_actions(s, &s.p[s.current], &CT, out, all_payments, B_KINDS, -1, B_GOLD, A_PASS, A_BUY,
                            s.nobles, s.n_nobles, N_REQ, A_NOBLE)


# ---------------------------------------------------------------------------- apply
# The turn is the card layer's (cards.pxd cg_apply); these are the base game's own steps.
cdef void _buy(BState* s, BPlayer* p, int target, int variant) noexcept nogil:
    cdef int cid = cg_target_card(s, target)
    cg_pay(s, p, &CT, cid, variant, B_GOLD)
    cg_gain_card(s, p, &CT, target, cid)


cdef void _take_noble(BState* s, BPlayer* p, int nid) noexcept nogil:
    s.n_nobles = cg_remove_piece(s.nobles, s.n_nobles, nid)
    p.nobles |= <uint16_t>(1 << nid)
    p.points += 3


cdef void _end_trigger(BState* s) noexcept nogil:
    """15 points: the round is played to its end."""
    if s.p[s.current].points >= 15:
        s.final_round = 1


cdef bint _round_end(BState* s) noexcept nogil:
    return s.final_round and cg_last_seat(s)


cdef void _finish_turn(BState* s, bint dead_turn) noexcept nogil:
    cg_finish_turn(s, dead_turn, _end_trigger, _round_end)


cdef void b_apply(void* state, int a) noexcept nogil:
    cdef BState* s = <BState*>state
    cg_apply(s, &s.p[s.current], &CT, a, B_KINDS, B_GOLD, A_PASS, A_BUY, s.nobles, s.n_nobles, N_REQ, A_NOBLE,
             _buy, _take_noble, NULL, _finish_turn)


cdef void b_returns(const void* state, double* out) noexcept nogil:
    """Most points win; a tie goes to the fewest cards; still tied, a shared win."""
    cdef const BState* s = <const BState*>state
    cdef int i, best = -1, fewest = 1000, winners = 0
    for i in range(s.n_players):
        out[i] = 0.0
    if s.phase != CPH_OVER:
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
    return cg_rollout_action(s, &s.p[s.current], &CT, rng, card_search_actions, False, B_GOLD, A_PASS, A_BUY,
                             NULL, _reserve_weight, _buy_weight)


cdef void b_priors(const void* state, const int* acts, int n, float* out) noexcept nogil:
    cdef double w[CG_MAX_SEARCH_ACTIONS]
    _action_weights(<const BState*>state, acts, n, w)
    cg_normalise(w, n, out)


# ---------------------------------------------------------------------------- Python face
cdef class CoreState(CardCoreState):
    """A base-game state in the Cython core (the API: splendor_ai/games/state.py; what the
    cores share: CoreFace, ext/coreface.pxi, and CardCoreState, ext/cardcore.pxi)."""

    cdef _read_own(self, pos):
        cdef int i
        self.s.n_nobles = cg_read_pieces(self.s.nobles, B_MAX_NOBLES, pos["nobles"])
        for i, seat in enumerate(pos["seats"]):
            for nid in seat["nobles"]:
                self.s.p[i].nobles |= <uint16_t>(1 << nid)
                self.s.p[i].points += 3

    cdef dict _own_fields(self):
        return {"nobles": [self.s.nobles[j] for j in range(self.s.n_nobles)]}

    cdef dict _own_seat_fields(self, int seat):
        return {"nobles": [j for j in range(B_NNOBLES) if (self.s.p[seat].nobles >> j) & 1]}


# ---------------------------------------------------------------------------- the core's entry
include "base_features.pxi"

game_def_init(&GAME_DEF, "base", sizeof(BState), CG_MAX_SEARCH_ACTIONS, A_NUM, CG_MAX_PLAYERS, cg_n_players,
              cg_current_player, card_search_actions, b_apply, b_returns, b_resample, b_evaluate, b_rollout_action,
              b_priors, B_NUM_FEATURES, B_POLICY_SIZE, b_features, b_policy_index)
