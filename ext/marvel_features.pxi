# The feature encoding of the learned evaluation (docs/learned.md, section 1) and the policy
# classes, in C. splendor_ai/games/marvel/features.py is the readable definition (its
# docstring and field lists name every number written here, in this order);
# tests/test_features_marvel.py checks that the two agree. Included from marvel.pyx after
# the tables and helpers it uses (C_*, L_REQ, _meets_gauntlet, the card layer's cg_*).
#
# Mover-relative: seat block i is seat (current + i) % n. Never read: the decks, and another
# seat's blind reserve (only its level), so a full state and the mover's view encode alike.
from libc.string cimport memset

cdef enum:
    MF_GLOBAL = 26      # sizes of one entry of each block
    MF_SEAT = 26
    MF_LOC = 14
    MF_BOARD = 27
    MF_OWN = 26
    MF_OTHER = 12
    MF_OFF_SEATS = 26                   # offsets: after the global block
    MF_OFF_LOCS = 26 + 4 * 26           # 130
    MF_OFF_BOARD = 130 + 4 * 14         # 186
    MF_OFF_OWN = 186 + 12 * 27          # 510
    MF_OFF_OTHER = 510 + 3 * 26         # 588
    M_NUM_FEATURES = 588 + 9 * 12       # 696
    M_POLICY_SIZE = MA_BUY + 15         # 76: ids below MA_BUY, then one class per buy target
    M_FEATURE_VERSION = 1

# Scales (features.py): per kind for a seat's tokens and for the supply, per level for decks.
cdef double MF_TOKEN_SCALE[7]
cdef double MF_SUPPLY_SCALE[7]
cdef double MF_DECK_SCALE[3]
MF_TOKEN_SCALE[:] = [7.0, 7.0, 7.0, 7.0, 7.0, 1.0, 5.0]
MF_SUPPLY_SCALE[:] = [7.0, 7.0, 7.0, 7.0, 7.0, 4.0, 5.0]
MF_DECK_SCALE[:] = [40.0, 30.0, 20.0]


cdef inline void _f_card(int cid, float* o) noexcept nogil:
    """present, colour one-hot, points, cost per colour, icons (13)."""
    cdef int c
    o[0] = 1.0
    o[1 + CT.color[cid]] = 1.0
    o[6] = CT.points[cid] / 5.0
    for c in range(5):
        o[7 + c] = CT.cost[cid][c] / 7.0
    o[12] = C_ICONS[cid] / 2.0


cdef inline int _f_shortfall(const MPlayer* p, const int* pw, int cid, int* d) noexcept nogil:
    """Stones lacking per colour (into d); returns what the grey tokens do not cover."""
    cdef int short = cg_missing(&CT, cid, pw, d) - p.tokens[M_GREY]
    return short if short > 0 else 0


cdef inline void _f_mover_card(const MPlayer* m, const int* pw, int cid, float* o) noexcept nogil:
    """What the mover lacks per colour, its shortfall after grey, whether it can recruit the
    card now, whether the card brings it a new colour (8)."""
    cdef int c, short
    cdef int d[5]
    short = _f_shortfall(m, pw, cid, d)
    for c in range(5):
        o[c] = d[c] / 7.0
    o[5] = short / 10.0
    o[6] = short == 0
    o[7] = m.bonus[CT.color[cid]] == 0


cdef void m_features(const void* state, float* out) noexcept nogil:
    cdef const MState* s = <const MState*>state
    cdef int n = s.n_players, cur = s.current
    cdef const MPlayer* m = &s.p[cur]
    cdef const MPlayer* p
    cdef int seat[CG_MAX_PLAYERS]
    cdef int pw[CG_MAX_PLAYERS][5]
    cdef int d[5]
    cdef int i, j, k, c, t, cid, lid, x, need, last, holder
    cdef float* o
    memset(out, 0, M_NUM_FEATURES * sizeof(float))
    for i in range(n):
        seat[i] = (cur + i) % n
        cg_power(&s.p[seat[i]], pw[i])
    # global
    out[n - 2] = 1.0
    out[3 + s.phase] = 1.0
    out[6] = s.final_round != 0
    out[7] = (<double>s.turn / n) / 40.0
    out[8] = <double>s.passes / n
    for k in range(M_KINDS):
        out[9 + k] = s.supply[k] / MF_SUPPLY_SCALE[k]
    for c in range(5):
        out[16 + c] = s.supply[c] >= 4
    for k in range(3):
        out[21 + k] = s.deck_len[k] / MF_DECK_SCALE[k]
    x = cg_total(m, M_KINDS) - 10
    if x > 0:
        out[24] = x / 3.0
    out[25] = s.avengers < 0
    # seats
    last = (s.start + n - 1) % n
    holder = s.avengers
    for i in range(n):
        p = &s.p[seat[i]]
        o = out + MF_OFF_SEATS + i * MF_SEAT
        for k in range(M_KINDS):
            o[k] = p.tokens[k] / MF_TOKEN_SCALE[k]
        for c in range(5):
            o[7 + c] = p.bonus[c] / 7.0
            o[12 + c] = p.bonus[c] > 0
        o[17] = p.points / 16.0
        o[18] = _meets_gauntlet(p)
        o[19] = p.n_cards / 20.0
        o[20] = p.n_res / 3.0
        o[21] = p.icons / 6.0
        o[22] = holder == seat[i]
        if holder == seat[i]:
            x = 0
        elif holder < 0:
            x = M_AVENGERS_ICONS - p.icons
        else:
            x = s.p[holder].icons + 1 - p.icons
        if x > 3:       # no more than the tile's threshold: beyond it, out of reach anyway
            x = 3
        if x > 0:
            o[23] = x / 3.0
        x = 0
        for k in range(M_NLOCATIONS):
            x += (p.locations >> k) & 1
        o[24] = x / 4.0
        o[25] = i <= (last - cur + n) % n
    # locations in play
    for j in range(s.n_locations):
        lid = s.locations[j]
        o = out + MF_OFF_LOCS + j * MF_LOC
        o[0] = 1.0
        for c in range(5):
            o[1 + c] = L_REQ[lid][c] / 4.0
        for i in range(n):
            p = &s.p[seat[i]]
            need = 0
            for c in range(5):
                if L_REQ[lid][c] > p.bonus[c]:
                    need += L_REQ[lid][c] - p.bonus[c]
            o[6 + i] = need / 9.0
            o[10 + i] = need == 0
    # face-up cards
    for t in range(12):
        cid = s.board[t >> 2][t & 3]
        if cid < 0:
            continue
        o = out + MF_OFF_BOARD + t * MF_BOARD
        _f_card(cid, o)
        _f_mover_card(m, pw[0], cid, o + 13)
        for i in range(1, n):
            x = _f_shortfall(&s.p[seat[i]], pw[i], cid, d)
            o[19 + 2 * i] = (d[0] + d[1] + d[2] + d[3] + d[4]) / 10.0
            o[20 + 2 * i] = x / 10.0
    # the mover's reserves (its own cards: all known, blind or not)
    for j in range(m.n_res):
        o = out + MF_OFF_OWN + j * MF_OWN
        o[0] = 1.0
        o[1] = m.res_blind[j] != 0
        o[1 + m.res_level[j]] = 1.0
        cid = m.res[j]
        if cid < 0:     # unknown: only in a view that is not the mover's
            continue
        o[5 + CT.color[cid]] = 1.0
        o[10] = CT.points[cid] / 5.0
        for c in range(5):
            o[11 + c] = CT.cost[cid][c] / 7.0
        o[16] = C_ICONS[cid] / 2.0
        o[17] = C_STONE[cid] != 0
        _f_mover_card(m, pw[0], cid, o + 18)
    # the other seats' reserves: a blind one only by its level (its card is hidden information)
    for i in range(1, n):
        p = &s.p[seat[i]]
        for j in range(p.n_res):
            o = out + MF_OFF_OTHER + ((i - 1) * CG_MAX_RES + j) * MF_OTHER
            o[0] = 1.0
            o[1] = p.res_blind[j] != 0
            o[1 + p.res_level[j]] = 1.0
            if p.res_blind[j]:
                continue
            cid = p.res[j]
            if cid < 0:
                continue
            o[5 + CT.color[cid]] = 1.0
            o[10] = CT.points[cid] / 5.0
            o[11] = _f_shortfall(p, pw[i], cid, d) / 10.0


cdef int m_policy_index(int action) noexcept nogil:
    """The policy class of an action id: the id below MA_BUY, else MA_BUY + buy target."""
    if action < MA_BUY:
        return action
    return MA_BUY + (action - MA_BUY) // CG_NPAY


# ---------------------------------------------------------------------------- Python face
NUM_FEATURES = M_NUM_FEATURES
POLICY_SIZE = M_POLICY_SIZE
FEATURE_VERSION = M_FEATURE_VERSION


def policy_index(action):
    """The policy class of an action id (features.policy_index)."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < MA_NUM:
        raise ValueError(f"action id {action!r} is outside 0..{MA_NUM - 1}")
    return m_policy_index(action)


from splendor_ai.games.marvel import features as _features_def

if (NUM_FEATURES, POLICY_SIZE, FEATURE_VERSION) != (
        _features_def.NUM_FEATURES, _features_def.POLICY_SIZE, _features_def.FEATURE_VERSION):
    raise ImportError(
        f"marvel core: features ({NUM_FEATURES}, {POLICY_SIZE}, version {FEATURE_VERSION}) differ "
        f"from splendor_ai/games/marvel/features.py ({_features_def.NUM_FEATURES}, "
        f"{_features_def.POLICY_SIZE}, version {_features_def.FEATURE_VERSION}): rebuild the core")
