# The base game's feature encoding and policy classes in C (included by base.pyx after its
# tables and helpers). The definition is splendor_ai/games/base/features.py: every number
# written here is the one its encode() computes (tests/test_features_base.py compares them).
# Never reads the decks (only their sizes) nor another seat's blind reserve.
from libc.string cimport memcpy, memset

from splendor_ai.games.base import features as _features

cdef enum:
    B_FEATURE_VERSION = 1
    B_POLICY_SIZE = A_BUY + 15      # 77: ids below A_BUY, then one class per buy target
    F_SEAT = 16
    F_CARD = 12
    F_LACK0 = 8
    F_LACK = 2
    F_BOARD_SLOT = 26               # F_CARD + F_LACK0 + 3 * F_LACK
    F_RESERVE0 = 24                 # F_CARD + 4 + F_LACK0
    F_RESERVE = 18                  # F_CARD + 4 + F_LACK
    F_NOBLE = 10
    OFF_SEATS = 0
    OFF_BOARD = 64                  # 4 * F_SEAT
    OFF_RESERVES0 = 376             # + 12 * F_BOARD_SLOT
    OFF_RESERVES = 448              # + 3 * F_RESERVE0
    OFF_NOBLES = 610                # + 9 * F_RESERVE
    OFF_SUPPLY = 660                # + 5 * F_NOBLE
    OFF_DECKS = 671                 # + 11
    OFF_GAME = 674                  # + 3
    B_NUM_FEATURES = 688            # + 14

# The card block of each card id: present, colour one-hot, points, cost (features.py _write_card).
cdef float F_CARD_VEC[CG_NCARDS][F_CARD]
# x / 7, x / 9, x / 10 for the small counts of the hot loops (a lack is at most 14, the
# largest cost in all; a noble's need at most 9): the same floats as the division.
cdef float DIV7[16]
cdef float DIV9[16]
cdef float DIV10[16]


cdef void _init_feature_tables():
    cdef int i, c
    memset(F_CARD_VEC, 0, sizeof(F_CARD_VEC))
    for i in range(16):
        DIV7[i] = i / 7.0
        DIV9[i] = i / 9.0
        DIV10[i] = i / 10.0
    for i in range(CG_NCARDS):
        F_CARD_VEC[i][0] = 1.0
        F_CARD_VEC[i][1 + CT.color[i]] = 1.0
        F_CARD_VEC[i][6] = CT.points[i] / 5.0
        for c in range(5):
            F_CARD_VEC[i][7 + c] = CT.cost[i][c] / 7.0


_init_feature_tables()


cdef inline void _f_lack0(int cid, const BPlayer* p, float* o) noexcept nogil:
    """The mover's lack block: per colour, in all, affordable, in all after bonuses only."""
    cdef int c, x, lack = 0, after_bonuses = 0
    for c in range(5):
        x = CT.cost[cid][c] - p.bonus[c]
        if x > 0:
            after_bonuses += x
            x -= p.tokens[c]
            if x > 0:
                lack += x
                o[c] = DIV7[x]
    o[5] = DIV10[lack]
    o[6] = 1.0 if lack <= p.tokens[B_GOLD] else 0.0
    o[7] = DIV10[after_bonuses]


cdef inline void _f_lack(int cid, const BPlayer* p, float* o) noexcept nogil:
    """Another seat's lack block: in all, affordable."""
    cdef int c, x, lack = 0
    for c in range(5):
        x = CT.cost[cid][c] - p.bonus[c] - p.tokens[c]
        if x > 0:
            lack += x
    o[0] = DIV10[lack]
    o[1] = 1.0 if lack <= p.tokens[B_GOLD] else 0.0


cdef void b_features(const void* state, float* out) noexcept nogil:
    """The encoding of features.py for the seat to act (called only before the end)."""
    cdef const BState* s = <const BState*>state
    cdef const BPlayer* seat[CG_MAX_PLAYERS]
    cdef const BPlayer* p
    cdef int n = s.n_players, cur = s.current
    cdef int k, c, t, j, cid, nid, need, x, total
    cdef float* o
    memset(out, 0, B_NUM_FEATURES * sizeof(float))
    for k in range(n):
        seat[k] = &s.p[(cur + k) % n]
    # seats
    for k in range(n):
        p = seat[k]
        o = out + OFF_SEATS + k * F_SEAT
        total = 0
        for c in range(5):
            o[c] = p.tokens[c] / 4.0
            o[7 + c] = p.bonus[c] / 7.0
            total += p.tokens[c]
        o[5] = p.tokens[B_GOLD] / 5.0
        o[6] = (total + p.tokens[B_GOLD]) / 10.0
        o[12] = p.n_cards / 20.0
        o[13] = p.points / 15.0
        o[14] = p.n_res / 3.0
        x = 0
        for j in range(B_NNOBLES):
            x += (p.nobles >> j) & 1
        o[15] = x / 3.0
    # board
    for t in range(12):
        cid = s.board[t >> 2][t & 3]
        if cid < 0:
            continue
        o = out + OFF_BOARD + t * F_BOARD_SLOT
        memcpy(o, F_CARD_VEC[cid], F_CARD * sizeof(float))
        _f_lack0(cid, seat[0], o + F_CARD)
        for k in range(1, n):
            _f_lack(cid, seat[k], o + F_CARD + F_LACK0 + (k - 1) * F_LACK)
    # the mover's reserves (its own blind ones included; -1 only in another seat's view)
    p = seat[0]
    for j in range(p.n_res):
        o = out + OFF_RESERVES0 + j * F_RESERVE0
        cid = p.res[j]
        o[0] = 1.0
        o[F_CARD] = p.res_blind[j]
        o[F_CARD + p.res_level[j]] = 1.0
        if cid >= 0:
            memcpy(o, F_CARD_VEC[cid], F_CARD * sizeof(float))
            _f_lack0(cid, p, o + F_CARD + 4)
    # the other seats' reserves: a blind one shows only its level (hidden information)
    for k in range(1, n):
        p = seat[k]
        for j in range(p.n_res):
            o = out + OFF_RESERVES + ((k - 1) * 3 + j) * F_RESERVE
            o[0] = 1.0
            o[F_CARD + p.res_level[j]] = 1.0
            if p.res_blind[j]:
                o[F_CARD] = 1.0
                continue
            cid = p.res[j]
            if cid >= 0:
                memcpy(o, F_CARD_VEC[cid], F_CARD * sizeof(float))
                _f_lack(cid, p, o + F_CARD + 4)
    # nobles
    for j in range(s.n_nobles):
        nid = s.nobles[j]
        o = out + OFF_NOBLES + j * F_NOBLE
        o[0] = 1.0
        for c in range(5):
            o[1 + c] = N_REQ[nid][c] / 4.0
        for k in range(n):
            need = 0
            for c in range(5):
                x = N_REQ[nid][c] - seat[k].bonus[c]
                if x > 0:
                    need += x
            o[6 + k] = DIV9[need]
    # supply, decks
    o = out + OFF_SUPPLY
    for c in range(5):
        o[c] = s.supply[c] / 7.0
        o[6 + c] = 1.0 if s.supply[c] >= 4 else 0.0
    o[5] = s.supply[B_GOLD] / 5.0
    o = out + OFF_DECKS
    o[0] = s.deck_len[0] / 40.0
    o[1] = s.deck_len[1] / 30.0
    o[2] = s.deck_len[2] / 20.0
    # the game
    o = out + OFF_GAME
    o[0] = (s.turn // n) / 30.0
    o[1] = 1.0 if s.final_round else 0.0
    o[2 + (cur - s.start + n) % n] = 1.0
    o[6 + s.phase] = 1.0
    o[9 + n - 2] = 1.0
    o[12] = s.passes / 4.0
    if s.phase == CPH_RETURN:
        o[13] = (cg_total(seat[0], B_KINDS) - 10) / 3.0


cdef int b_policy_index(int action) noexcept nogil:
    if action < A_BUY:
        return action
    return A_BUY + (action - A_BUY) // CG_NPAY


# ---------------------------------------------------------------------------- Python face
NUM_FEATURES = B_NUM_FEATURES
POLICY_SIZE = B_POLICY_SIZE
FEATURE_VERSION = B_FEATURE_VERSION

# Checked at import (not with assert, which python -O would drop): the core and the readable
# definition must agree, or a net trained on one would read the other wrongly.
if (NUM_FEATURES, POLICY_SIZE, FEATURE_VERSION) != (
        _features.NUM_FEATURES, _features.POLICY_SIZE, _features.FEATURE_VERSION):
    raise ImportError("ext/base_features.pxi and splendor_ai/games/base/features.py disagree "
                      "on NUM_FEATURES, POLICY_SIZE or FEATURE_VERSION")
if [OFF_SEATS, OFF_BOARD, OFF_RESERVES0, OFF_RESERVES, OFF_NOBLES, OFF_SUPPLY, OFF_DECKS,
        OFF_GAME] != list(_features.OFFSETS.values()):
    raise ImportError("ext/base_features.pxi and splendor_ai/games/base/features.py disagree "
                      "on the layout of the blocks")


def policy_index(int action):
    """The policy-head class of an action id (the payment variants of a buy share one)."""
    if not 0 <= action < A_NUM:
        raise ValueError(f"action id {action} is outside 0..{A_NUM - 1}")
    return b_policy_index(action)
