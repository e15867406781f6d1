# The Splendor: Marvel core: the whole state in one fixed-size struct (MState, marvel.pxd),
# move generation and apply as noexcept nogil C functions, and CoreState, the Python face
# that satisfies the State protocol of splendor_ai/games/state.py.
#
# The rules are those of splendor_ai/games/marvel/reference.py (the executable
# specification); the parity test (tests/test_parity.py) compares the two after every
# action. What Marvel shares with the base game (taking, reserving, recruiting and paying,
# the order of a turn, hidden cards, the rollout's take weights, the Python face) is the
# card-game layer: ext/cards.pxd, cardsearch.pxd and cardcore.pxi; this file holds Marvel's
# own rules: green and grey, the Time Stone, the Avengers tile, locations, the Infinity
# Gauntlet, the winners, and its heuristics.
from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.string cimport memcpy
from marvel cimport *

from splendor_ai.games.marvel import spec as _spec

ctypedef MState CardStateT
include "cardcore.pxi"                  # what Marvel shares with the base game: CT, GAME_DEF, CardCoreState

# ---------------------------------------------------------------------------- tables
cdef int8_t C_ICONS[CG_NCARDS]
cdef int8_t C_STONE[CG_NCARDS]          # 1: the Time Stone icon
cdef uint64_t STONE_MASK[2]             # bit per card id with the Time Stone icon
cdef int8_t L_REQ[M_NLOCATIONS][5]
cdef int8_t L_POINTS[M_NLOCATIONS]


cdef void _init_tables():
    cdef int i, c
    STONE_MASK[0] = 0
    STONE_MASK[1] = 0
    for card in _spec.CARDS:
        i = card.id
        C_ICONS[i] = card.avengers
        C_STONE[i] = card.time_stone
        if card.time_stone:
            STONE_MASK[i >> 6] |= (<uint64_t>1) << (i & 63)
    for loc in _spec.LOCATIONS:
        L_POINTS[loc.id] = loc.points
        for c in range(5):
            L_REQ[loc.id][c] = loc.requires[c]


_init_tables()

# ---------------------------------------------------------------------------- moves
cdef inline bint _meets_gauntlet(const MPlayer* p) noexcept nogil:
    """16+ points, a bonus of each colour, a green token."""
    cdef int c
    if p.points < M_GAUNTLET_POINTS or p.tokens[M_GREEN] < 1:
        return False
    for c in range(5):
        if p.bonus[c] < 1:
            return False
    return True


cdef int _phase_actions(const MState* s, int* out, bint all_payments) noexcept nogil:
    """The seat to act's actions (cards.pxd cg_phase_actions; green can never be returned);
    cardcore.pxi hands them out."""
    return cg_phase_actions(s, &s.p[s.current], &CT, out, all_payments, M_KINDS, M_GREEN, M_GREY, MA_PASS, MA_BUY,
                            s.locations, s.n_locations, L_REQ, MA_LOCATION)


# ---------------------------------------------------------------------------- apply
# The turn is the card layer's (cards.pxd cg_apply); these are Marvel's own steps.
cdef void _recruit(MState* s, MPlayer* p, int target, int variant) noexcept nogil:
    cdef int cid = cg_target_card(s, target)
    cdef bint first_stone
    cg_pay(s, p, &CT, cid, variant, M_GREY)
    # The Time Stone: the first card with the icon gives 1 green (one per player at most).
    first_stone = C_STONE[cid] and not (p.owned[0] & STONE_MASK[0]) and not (p.owned[1] & STONE_MASK[1])
    if first_stone and p.tokens[M_GREEN] == 0 and s.supply[M_GREEN] > 0:
        s.supply[M_GREEN] -= 1
        p.tokens[M_GREEN] += 1
    p.icons += C_ICONS[cid]
    cg_gain_card(s, p, &CT, target, cid)


cdef bint _avengers_assemble(MState* s) noexcept nogil:
    """Before the locations: first to 3 icons takes the tile; later only strictly more icons
    take it. Returns whether the tile came to the seat to act."""
    cdef int cur = s.current
    cdef MPlayer* p = &s.p[cur]
    if s.avengers == cur:
        return False
    if s.avengers < 0:
        if p.icons < M_AVENGERS_ICONS:
            return False
    elif p.icons <= s.p[s.avengers].icons:
        return False
    else:
        s.p[s.avengers].points -= 3
    p.points += 3
    s.avengers = cur
    return True


cdef void _take_location(MState* s, MPlayer* p, int lid) noexcept nogil:
    s.n_locations = cg_remove_piece(s.locations, s.n_locations, lid)
    p.locations |= <uint8_t>(1 << lid)
    p.points += L_POINTS[lid]


cdef void _end_trigger(MState* s) noexcept nogil:
    """The Infinity Gauntlet: the round is played to its end."""
    if _meets_gauntlet(&s.p[s.current]):
        s.final_round = 1


cdef bint _round_end(MState* s) noexcept nogil:
    """At the round's end the game is over if a seat meets the Gauntlet condition; nobody
    meets it any more: the trigger is undone."""
    cdef int i
    if not (s.final_round and cg_last_seat(s)):
        return False
    for i in range(s.n_players):
        if _meets_gauntlet(&s.p[i]):
            return True
    s.final_round = 0
    return False


cdef void _finish_turn(MState* s, bint dead_turn) noexcept nogil:
    cg_finish_turn(s, dead_turn, _end_trigger, _round_end)


cdef void m_apply(void* state, int a) noexcept nogil:
    cdef MState* s = <MState*>state
    cg_apply(s, &s.p[s.current], &CT, a, M_KINDS, M_GREY, MA_PASS, MA_BUY, s.locations, s.n_locations, L_REQ,
             MA_LOCATION, _recruit, _take_location, _avengers_assemble, _finish_turn)


cdef void m_returns(const void* state, double* out) noexcept nogil:
    """Only seats meeting the Gauntlet condition can win: most points, then the Avengers
    tile, then fewest cards, then a shared win. Nobody meeting it: all 0."""
    cdef const MState* s = <const MState*>state
    cdef int i, best = -1, fewest = 1000, winners = 0
    cdef bint eligible[CG_MAX_PLAYERS]
    for i in range(s.n_players):
        out[i] = 0.0
    if s.phase != CPH_OVER:
        return
    for i in range(s.n_players):
        eligible[i] = _meets_gauntlet(&s.p[i])
        if eligible[i] and s.p[i].points > best:
            best = s.p[i].points
    if best < 0:
        return
    if s.avengers >= 0 and eligible[s.avengers] and s.p[s.avengers].points == best:
        out[s.avengers] = 1.0
        return
    for i in range(s.n_players):
        if eligible[i] and s.p[i].points == best and s.p[i].n_cards < fewest:
            fewest = s.p[i].n_cards
    for i in range(s.n_players):
        if eligible[i] and s.p[i].points == best and s.p[i].n_cards == fewest:
            winners += 1
    for i in range(s.n_players):
        if eligible[i] and s.p[i].points == best and s.p[i].n_cards == fewest:
            out[i] = 1.0 / winners


cdef void m_resample(void* state, int seat, Rng* rng) noexcept nogil:
    cg_resample(<MState*>state, &CT, seat, rng)


# ---------------------------------------------------------------------------- heuristics
# Used by the search (through GAME_DEF): a cheap evaluation at rollout cut-offs, the rollout
# policy (one action per call, drawn by squared weight) and the tree's priors (one ply of the
# evaluation). Their weights are documented in docs/marvel.md. Unlike the base game, points alone do not win: only a seat
# meeting the Infinity Gauntlet condition (16 points, every colour, a green token) can, so
# the evaluation caps the points a seat can use by how far it is from the other two parts.

cdef double EVAL_TEMPERATURE = 1.6   # points; softmax of the seat values
cdef double EVAL_BONUS = 0.45        # one permanent bonus, in points
cdef double EVAL_STONE = 0.12        # one stone token
cdef double EVAL_GREY = 0.2
cdef double EVAL_COLOUR = 1.0        # a colour with at least one bonus (the Gauntlet needs all 5)
cdef double EVAL_GREEN = 2.5         # holding the green token (the Gauntlet needs it)
cdef double EVAL_CAP_COLOUR = 2.0    # the points cap drops by this per colour still missing
cdef double EVAL_CAP_GREEN = 4.0     # and by this without a green token
cdef double EVAL_OVER_CAP = 0.3      # points above the cap still count this much
cdef double EVAL_LOCATION = 2.0      # a location fully in reach (scaled by progress cubed)
cdef double EVAL_ICON = 0.3          # an Avengers icon (the tile is worth 3)


cdef double _seat_value(const MState* s, int i) noexcept nogil:
    cdef const MPlayer* p = &s.p[i]
    cdef double v, cap, prog, need, have, pts = p.points
    cdef int c, j, lid, b = 0, missing = 0
    for c in range(5):
        b += p.bonus[c] if p.bonus[c] < 6 else 6
        if p.bonus[c] == 0:
            missing += 1
    # Points count fully only up to what the seat could win with now: a seat that lacks
    # colours or the green token cannot end the game on its points.
    cap = M_GAUNTLET_POINTS - EVAL_CAP_COLOUR * missing - (0.0 if p.tokens[M_GREEN] else EVAL_CAP_GREEN)
    v = pts if pts <= cap else cap + EVAL_OVER_CAP * (pts - cap)
    v += EVAL_COLOUR * (5 - missing)
    if p.tokens[M_GREEN]:
        v += EVAL_GREEN
    v += EVAL_BONUS * b
    v += EVAL_STONE * (p.tokens[0] + p.tokens[1] + p.tokens[2] + p.tokens[3] + p.tokens[4])
    v += EVAL_GREY * p.tokens[M_GREY]
    v += EVAL_ICON * (p.icons if p.icons < 6 else 6)
    for j in range(s.n_locations):
        lid = s.locations[j]
        need = 0
        have = 0
        for c in range(5):
            need += L_REQ[lid][c]
            have += p.bonus[c] if p.bonus[c] < L_REQ[lid][c] else L_REQ[lid][c]
        prog = have / need
        v += EVAL_LOCATION * prog * prog * prog
    return v


cdef void m_evaluate(const void* state, double* out) noexcept nogil:
    cg_evaluate(<const MState*>state, out, _seat_value, m_returns, EVAL_TEMPERATURE)


cdef inline double _card_appeal(const MPlayer* p, int cid) noexcept nogil:
    """How much a card helps beyond its points: the first Time Stone card (the green token),
    a colour the seat has no bonus of yet, Avengers icons."""
    cdef double x = C_ICONS[cid]
    if C_STONE[cid] and p.tokens[M_GREEN] == 0:
        x += 3.0
    if p.bonus[CT.color[cid]] == 0:
        x += 1.5
    return x


cdef double _appeal(const void* p, int cid) noexcept nogil:
    return _card_appeal(<const MPlayer*>p, cid)


cdef double _buy_weight(const void* p, int cid) noexcept nogil:
    return 6.0 + 4.0 * CT.points[cid] + 2.0 * _card_appeal(<const MPlayer*>p, cid)


cdef double _reserve_weight(const void* p, int cid) noexcept nogil:
    return 0.1 + 0.1 * CT.points[cid] + (0.3 if C_STONE[cid] and (<const MPlayer*>p).tokens[M_GREEN] == 0 else 0.0)


cdef inline void _action_weights(const MState* s, const int* acts, int n, double* w) noexcept nogil:
    """A positive weight per action (cg_action_weights): recruiting first (more for points,
    the first Time Stone and missing colours), then useful stones."""
    cg_action_weights(s, &s.p[s.current], &CT, acts, n, w, M_GREY, MA_PASS, MA_BUY, _appeal, _reserve_weight,
                      _buy_weight)


cdef int m_rollout_action(const void* state, Rng* rng) noexcept nogil:
    """The rollout policy: one action drawn by the squares of the weights of _action_weights
    (squaring makes the rollouts greedier, which played better than the plain weights)."""
    cdef const MState* s = <const MState*>state
    return cg_rollout_action(s, &s.p[s.current], &CT, rng, card_search_actions, True, M_GREY, MA_PASS, MA_BUY,
                             _appeal, _reserve_weight, _buy_weight)


cdef double PRIOR_TEMPERATURE = 0.1   # win probability; softmax of the one-ply values


cdef void m_priors(const void* state, const int* acts, int n, float* out) noexcept nogil:
    """One ply of the evaluation: each action is played on a copy and scored for the mover;
    the priors are a softmax of those win probabilities. Dearer than the rollout weights
    (one apply and one evaluation per action, once per expansion), but in Marvel, where the
    Gauntlet makes the right card depend on the whole tableau, far better at ordering the
    moves (docs/marvel.md: 98 / 82.5 / 61.5 % against the greedy bot with 2 / 3 / 4 players,
    instead of 84 / 74 / 40 % with the rollout weights as priors)."""
    cdef const MState* s = <const MState*>state
    cdef MState work
    cdef double q[CG_MAX_SEARCH_ACTIONS]
    cdef double values[CG_MAX_PLAYERS]
    cdef int i, seat = s.current
    for i in range(n):
        memcpy(&work, s, sizeof(MState))
        m_apply(&work, acts[i])
        m_evaluate(&work, values)
        q[i] = values[seat]
    cg_softmax(q, n, PRIOR_TEMPERATURE)
    for i in range(n):
        out[i] = <float>q[i]


# ---------------------------------------------------------------------------- Python face
cdef class CoreState(CardCoreState):
    """A Splendor: Marvel state in the Cython core (the API: splendor_ai/games/state.py; what
    the cores share: CoreFace, ext/coreface.pxi, and CardCoreState, ext/cardcore.pxi)."""

    cdef _read_own(self, pos):
        cdef int i, cid
        cdef MPlayer* p
        self.s.avengers = -1 if pos["avengers"] is None else pos["avengers"]
        self.s.n_locations = cg_read_pieces(self.s.locations, M_MAX_LOCATIONS, pos["locations"])
        for i, seat in enumerate(pos["seats"]):
            p = &self.s.p[i]
            for cid in seat["cards"]:
                p.icons += C_ICONS[cid]
            for lid in seat["locations"]:
                p.locations |= <uint8_t>(1 << lid)
                p.points += L_POINTS[lid]
            if self.s.avengers == i:
                p.points += 3

    cdef dict _own_fields(self):
        return {"locations": [self.s.locations[j] for j in range(self.s.n_locations)],
                "avengers": None if self.s.avengers < 0 else self.s.avengers}

    cdef dict _own_seat_fields(self, int seat):
        return {"locations": [j for j in range(M_NLOCATIONS) if (self.s.p[seat].locations >> j) & 1]}

    def icons(self, int seat):
        return self.s.p[seat].icons

    def meets_gauntlet(self, int seat):
        return bool(_meets_gauntlet(&self.s.p[seat]))


# ---------------------------------------------------------------------------- the core's entry
include "marvel_features.pxi"

game_def_init(&GAME_DEF, "marvel", sizeof(MState), CG_MAX_SEARCH_ACTIONS, MA_NUM, CG_MAX_PLAYERS, cg_n_players,
              cg_current_player, card_search_actions, m_apply, m_returns, m_resample, m_evaluate, m_rollout_action,
              m_priors, M_NUM_FEATURES, M_POLICY_SIZE, m_features, m_policy_index)
