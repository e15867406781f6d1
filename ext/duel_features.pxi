# Splendor Duel: the feature encoding of the learned evaluation, in C (included by duel.pyx
# after its tables and helpers). The readable definition, block by block, with the scales,
# is splendor_ai/games/duel/features.py; tests/test_features_duel.py checks that the two
# agree. What the seat to act sees, mover first: never the deck or bag order, never the
# identity of the opponent's blind reserve (even in a full state, whose res[] holds it).

from splendor_ai.games.duel import features as _features

cdef enum:
    F_SEAT = 30
    F_CARD = 19
    F_SLOT = 24
    F_RESERVE = 24
    F_PHASE = 0
    F_EXTRA = 8
    F_TURN = 9
    F_SUPPLY = 10
    F_DECKS = 11
    F_BAG = 14
    F_PENDING = 21
    F_BOARD = 27
    F_LINE_MAX = F_BOARD + D_CELLS * 7            # 202
    F_SEATS = F_LINE_MAX + 6                      # 208
    F_PYRAMID = F_SEATS + 2 * F_SEAT              # 268
    F_RESERVES = F_PYRAMID + D_PYRAMID * F_SLOT   # 556
    D_NUM_FEATURES = F_RESERVES + 2 * D_MAX_RES * F_RESERVE  # 700
    D_POLICY_SIZE = A_BUY + D_PYRAMID + D_MAX_RES  # 274
    F_NEAR = 3       # a near card lacks at most this many tokens after gold
    F_TURN_CAP = 100

cdef extern from *:
    int __builtin_popcountll(unsigned long long x) nogil

cdef float F_KIND[7]                      # tokens per kind: 4 per gem, 2 pearls, 3 gold
cdef float F_DECK[3]                      # cards per level: 30, 24, 13
cdef float F_CARD_TABLE[D_NCARDS][F_CARD]  # the CARD block of each card


cdef void _init_features():
    cdef int i, k, lv
    cdef int abil[4]
    abil[0] = AB_EXTRA
    abil[1] = AB_TOKEN
    abil[2] = AB_PRIVILEGE
    abil[3] = AB_STEAL
    for k in range(7):
        F_KIND[k] = _spec.TOKEN_TOTALS[k]
    for lv in range(3):
        F_DECK[lv] = len(_spec.CARDS_BY_LEVEL[lv])
    for i in range(D_NCARDS):
        for k in range(F_CARD):
            F_CARD_TABLE[i][k] = 0.0
        if C_COLOR[i] <= D_JOKER:
            F_CARD_TABLE[i][C_COLOR[i]] = 1.0
        F_CARD_TABLE[i][6] = C_POINTS[i] / 6.0
        F_CARD_TABLE[i][7] = C_CROWNS[i] / 3.0
        F_CARD_TABLE[i][8] = C_BONUS[i] / 2.0
        for k in range(4):
            F_CARD_TABLE[i][9 + k] = 1.0 if C_ABIL[i] & abil[k] else 0.0
        for k in range(6):
            F_CARD_TABLE[i][13 + k] = C_COST[i][k] / F_KIND[k]
    assert (D_NUM_FEATURES, D_POLICY_SIZE, F_SEAT, F_CARD, F_SLOT, F_RESERVE) == (
        _features.NUM_FEATURES, _features.POLICY_SIZE, _features.SEAT, _features.CARD,
        _features.SLOT, _features.RESERVE), "duel features: the core and features.py disagree on sizes"
    assert [F_PHASE, F_EXTRA, F_TURN, F_SUPPLY, F_DECKS, F_BAG, F_PENDING, F_BOARD, F_LINE_MAX,
            F_SEATS, F_PYRAMID, F_RESERVES] == list(_features.OFFSETS.values())


_init_features()

NUM_FEATURES = D_NUM_FEATURES
POLICY_SIZE = D_POLICY_SIZE
FEATURE_VERSION = _features.FEATURE_VERSION


cdef inline int _lack(const DPlayer* p, int cid, int* lack) noexcept nogil:
    """Per gem and pearl, what p lacks of card cid after bonuses and tokens; returns the sum."""
    cdef int k, price, l, total = 0
    for k in range(6):
        price = C_COST[cid][k] - (p.bonus[k] if k < 5 else 0)
        if price < 0:
            price = 0
        l = price - p.tokens[k]
        if l < 0:
            l = 0
        lack[k] = l
        total += l
    return total


cdef inline void _lack_pair(const DPlayer* p, int cid, float* out, int* need) noexcept nogil:
    """LACK of p for cid (lack / 10, affordable) into out[0..1]; counts a near card in need."""
    cdef int lack[6]
    cdef int k, short, total = _lack(p, cid, lack)
    cdef bint kind_ok = _can_buy_kind(p, cid)
    out[0] = total / 10.0
    out[1] = 1.0 if kind_ok and total <= p.tokens[D_GOLD] else 0.0
    short = total - p.tokens[D_GOLD]
    if kind_ok and 1 <= short <= F_NEAR:
        for k in range(6):
            if lack[k] > 0:
                need[k] += 1


cdef inline int _bits3(uint32_t x) noexcept nogil:
    """The number of bits set in x, which has at most three (a line's cells)."""
    cdef uint32_t y = x & (x - 1)
    return (x != 0) + (y != 0) + ((y & (y - 1)) != 0)


cdef void d_features(const void* state, float* out) noexcept nogil:
    cdef const DState* s = <const DState*>state
    cdef const DPlayer* p
    cdef int seats[2]
    cdef int need[2][6]
    cdef int best[6]
    cdef int cnt[7]
    cdef uint32_t colour[6]     # the cells holding each gem colour or pearl, as bits
    cdef uint32_t tokens        # the cells holding a token one may take (not gold)
    cdef int i, j, k, c, cid, line, best_c
    cdef float* o
    memset(out, 0, D_NUM_FEATURES * sizeof(float))
    seats[0] = s.current
    seats[1] = 1 - s.current
    memset(need, 0, sizeof(need))

    # the turn
    if s.phase < PH_OVER:
        out[F_PHASE + s.phase] = 1.0
    out[F_EXTRA] = 1.0 if s.extra_turn else 0.0
    out[F_TURN] = (s.turn if s.turn < F_TURN_CAP else F_TURN_CAP) / <float>F_TURN_CAP
    out[F_SUPPLY] = s.privileges / 3.0
    for k in range(3):
        out[F_DECKS + k] = s.deck_len[k] / F_DECK[k]
    for k in range(7):
        cnt[k] = 0
    for i in range(s.bag_len):  # only the contents, whatever the order
        cnt[s.bag[i]] += 1
    for k in range(7):
        out[F_BAG + k] = cnt[k] / F_KIND[k]
    if s.pending >= 0:
        if C_COLOR[s.pending] < 5:
            out[F_PENDING + C_COLOR[s.pending]] = 1.0
        out[F_PENDING + 5] = C_POINTS[s.pending] / 6.0

    # the board and the most of each gem or pearl one take gets
    for k in range(6):
        best[k] = 0
        colour[k] = 0
    tokens = 0
    for c in range(D_CELLS):
        if s.board[c] >= 0:
            out[F_BOARD + c * 7 + s.board[c]] = 1.0
            if s.board[c] <= D_PEARL:
                colour[s.board[c]] |= (<uint32_t>1) << c
                tokens |= (<uint32_t>1) << c
    for line in range(D_NLINES):
        if (LINE_MASK[line] & ~tokens) == 0:   # a line one may take
            for k in range(6):
                j = _bits3(LINE_MASK[line] & colour[k])
                if j > best[k]:
                    best[k] = j
    for k in range(6):
        out[F_LINE_MAX + k] = best[k] / 3.0

    # the pyramid: each card, and each seat's lack
    for j in range(D_PYRAMID):
        cid = s.pyramid[j]
        if cid < 0:
            continue
        o = out + F_PYRAMID + j * F_SLOT
        o[0] = 1.0
        memcpy(o + 1, F_CARD_TABLE[cid], F_CARD * sizeof(float))
        for i in range(2):
            _lack_pair(&s.p[seats[i]], cid, o + 1 + F_CARD + 2 * i, need[i])

    # the reserves: the opponent's blind ones only by their level
    for i in range(2):
        p = &s.p[seats[i]]
        for j in range(p.n_res):
            o = out + F_RESERVES + (i * D_MAX_RES + j) * F_RESERVE
            o[0] = 1.0
            o[2] = p.res_level[j] / 3.0
            cid = p.res[j]
            if cid < 0 or (i == 1 and p.res_blind[j]):
                o[1] = 1.0
                continue
            memcpy(o + 3, F_CARD_TABLE[cid], F_CARD * sizeof(float))
            _lack_pair(p, cid, o + 3 + F_CARD, need[i])

    # the seats
    for i in range(2):
        p = &s.p[seats[i]]
        o = out + F_SEATS + i * F_SEAT
        best_c = 0
        for k in range(7):
            o[k] = p.tokens[k] / F_KIND[k]
        for k in range(5):
            o[7 + k] = p.bonus[k] / 4.0
            o[12 + k] = p.color_points[k] / 10.0
            if p.color_points[k] > best_c:
                best_c = p.color_points[k]
        o[17] = p.points / 20.0
        o[18] = p.crowns / 10.0
        o[19] = best_c / 10.0
        o[20] = p.privileges / 3.0
        o[21] = p.n_royals / 2.0
        o[22] = (__builtin_popcountll(p.owned[0]) + __builtin_popcountll(p.owned[1])) / 20.0
        o[23] = p.n_res / 3.0
        for k in range(6):
            o[24 + k] = need[i][k] / 4.0


cdef int d_policy_index(int action) noexcept nogil:
    if action < A_BUY:
        return action
    return A_BUY + (action - A_BUY) // D_NPAY


def policy_index(action):
    """The policy class of an action id (payment variants of one buy share a class)."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < A_NUM:
        raise ValueError(f"action id {action!r} is outside 0..{A_NUM - 1}")
    return d_policy_index(action)
