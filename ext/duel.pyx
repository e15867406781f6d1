# The Splendor Duel core: the whole state in one fixed-size struct (DState, duel.pxd), move
# generation and apply as noexcept nogil C functions, and CoreState, the Python face that
# satisfies the State protocol of splendor_ai/games/state.py.
#
# The rules are those of splendor_ai/games/duel/reference.py (the executable specification);
# the parity test (tests/test_parity.py) compares the two after every action.
from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from rng cimport Rng, rng_seed, rng_below, rng_next, rng_uniform, splitmix64
from duel cimport *
from cards cimport (cg_deck_fields, cg_read_seat, cg_read_turn, cg_redraw_cards, cg_reserve_actions, cg_seat_fields,
                   cg_turn_fields)
from cardsearch cimport cg_normalise, cg_roulette
from game cimport GameDef, game_def_init

from splendor_ai.games.duel import spec as _spec
from splendor_ai.games.errors import HiddenInformationError

# ---------------------------------------------------------------------------- tables
cdef int8_t C_LEVEL[D_NCARDS]
cdef int8_t C_COLOR[D_NCARDS]
cdef int8_t C_POINTS[D_NCARDS]
cdef int8_t C_CROWNS[D_NCARDS]
cdef int8_t C_ABIL[D_NCARDS]
cdef int8_t C_BONUS[D_NCARDS]
cdef int8_t C_COST[D_NCARDS][6]
cdef int8_t C_JOKER[D_NCARDS]      # index among the jokers, or -1
cdef int8_t R_POINTS[D_NROYALS]
cdef int8_t R_ABIL[D_NROYALS]
cdef int8_t SPIRAL[D_CELLS]
cdef int8_t LINE_LEN[D_NLINES]
cdef int8_t LINE_CELL[D_NLINES][3]
cdef uint32_t LINE_MASK[D_NLINES]  # the line's cells as bits (cell c: 1 << c)
cdef int8_t PAY[D_NPAY][6]
cdef int8_t PAY_SUM[D_NPAY]
cdef int8_t SLOT_LEVEL[D_PYRAMID]  # 0..2


cdef void _init_tables():
    cdef int i, k, j = 0
    for card in _spec.CARDS:
        i = card.id
        C_LEVEL[i] = card.level
        C_COLOR[i] = card.color
        C_POINTS[i] = card.points
        C_CROWNS[i] = card.crowns
        C_ABIL[i] = card.abilities
        C_BONUS[i] = card.bonus
        for k in range(6):
            C_COST[i][k] = card.cost[k]
        C_JOKER[i] = -1
        if card.color == _spec.JOKER:
            C_JOKER[i] = j
            j += 1
    assert j == D_NJOKERS
    for royal in _spec.ROYALS:
        R_POINTS[royal.id] = royal.points
        R_ABIL[royal.id] = royal.abilities
    for i, cell in enumerate(_spec.SPIRAL):
        SPIRAL[i] = cell
    for i, cells in enumerate(_spec.LINES):
        LINE_LEN[i] = len(cells)
        LINE_MASK[i] = 0
        for k in range(len(cells)):
            LINE_CELL[i][k] = cells[k]
            LINE_MASK[i] |= (<uint32_t>1) << cells[k]
    for i, v in enumerate(_spec.PAY_VARIANTS):
        PAY_SUM[i] = sum(v)
        for k in range(6):
            PAY[i][k] = v[k]
    for i in range(D_PYRAMID):
        SLOT_LEVEL[i] = _spec.slot_level(i) - 1
    assert (A_GOLD, A_RESERVE, A_TOKEN, A_PASS, A_BUY, A_NUM) == (
        _spec.TAKE_GOLD, _spec.RESERVE, _spec.TOKEN, _spec.PASS, _spec.BUY, _spec.NUM_ACTIONS)


_init_tables()

# ---------------------------------------------------------------------------- helpers
cdef inline int _total(const DPlayer* p) noexcept nogil:
    return p.tokens[0] + p.tokens[1] + p.tokens[2] + p.tokens[3] + p.tokens[4] + p.tokens[5] + p.tokens[6]


cdef inline bint _owns(const DPlayer* p, int cid) noexcept nogil:
    return (p.owned[cid >> 6] >> (cid & 63)) & 1


cdef inline int _target_card(const DState* s, int target) noexcept nogil:
    """Card id at a buy target (pyramid slot 0..11, own reserve 12..14), or -1."""
    cdef const DPlayer* p
    if target < D_PYRAMID:
        return s.pyramid[target]
    p = &s.p[s.current]
    if target - D_PYRAMID < p.n_res:
        return p.res[target - D_PYRAMID]
    return -1


cdef inline int _shortfall(const DPlayer* p, int cid, int* held) noexcept nogil:
    """Gold needed to buy cid with gold only for the shortfall; held[k]: tokens of kind k paid."""
    cdef int k, price, short = 0
    for k in range(6):
        price = C_COST[cid][k] - (p.bonus[k] if k < 5 else 0)
        if price < 0:
            price = 0
        held[k] = price if price < p.tokens[k] else p.tokens[k]
        short += price - held[k]
    return short


cdef inline bint _can_buy_kind(const DPlayer* p, int cid) noexcept nogil:
    """A joker needs a card with a bonus colour."""
    return C_COLOR[cid] != D_JOKER or (p.bonus[0] + p.bonus[1] + p.bonus[2] + p.bonus[3] + p.bonus[4]) > 0


cdef inline bint _reservable(const DState* s) noexcept nogil:
    cdef int t
    for t in range(D_PYRAMID):
        if s.pyramid[t] >= 0:
            return True
    return s.deck_len[0] > 0 or s.deck_len[1] > 0 or s.deck_len[2] > 0


cdef inline bint _has_won(const DPlayer* p) noexcept nogil:
    cdef int c
    if p.points >= 20 or p.crowns >= 10:
        return True
    for c in range(5):
        if p.color_points[c] >= 10:
            return True
    return False


cdef inline int _royals_due(const DPlayer* p) noexcept nogil:
    return (p.crowns >= 3) + (p.crowns >= 6) - p.n_royals


# ---------------------------------------------------------------------------- legal actions
cdef int _mandatory(const DState* s, int* out, int n, bint all_payments) noexcept nogil:
    cdef const DPlayer* p = &s.p[s.current]
    cdef int i, k, c, t, cid, short, v
    cdef int held[6]
    cdef bint ok
    cdef uint32_t tokens = 0     # the cells holding a token that may be taken (not gold)
    for c in range(D_CELLS):
        if 0 <= s.board[c] <= D_PEARL:
            tokens |= (<uint32_t>1) << c
    for i in range(D_NLINES):
        # Without a branch (which the board's pattern made mispredict): every line is written
        # and only the ones that may be taken are kept. n <= 26 here, so the writes stay
        # under 26 + D_NLINES = 171, inside every caller's buffer (D_MAX_SEARCH_ACTIONS).
        out[n] = A_TAKE + i
        n += (LINE_MASK[i] & ~tokens) == 0
    if p.n_res < D_MAX_RES and _reservable(s):
        for c in range(D_CELLS):
            if s.board[c] == D_GOLD:
                out[n] = A_GOLD + c
                n += 1
    for t in range(D_PYRAMID + D_MAX_RES):
        cid = _target_card(s, t)
        if cid < 0 or not _can_buy_kind(p, cid):
            continue
        short = _shortfall(p, cid, held)
        if short > p.tokens[D_GOLD]:
            continue
        out[n] = A_BUY + t * D_NPAY
        n += 1
        if all_payments and p.tokens[D_GOLD] > short:
            for v in range(1, D_NPAY):
                if PAY_SUM[v] > p.tokens[D_GOLD] - short:
                    continue
                ok = True
                for k in range(6):
                    if PAY[v][k] > held[k]:
                        ok = False
                        break
                if ok:
                    out[n] = A_BUY + t * D_NPAY + v
                    n += 1
    return n


cdef int _actions(const DState* s, int* out, bint all_payments) noexcept nogil:
    cdef const DPlayer* p = &s.p[s.current]
    cdef const DPlayer* o = &s.p[1 - s.current]
    cdef int n = 0, c, k, t
    if s.phase == PH_MAIN or s.phase == PH_MANDATORY:
        if s.phase == PH_MAIN and p.privileges > 0:
            for c in range(D_CELLS):
                if 0 <= s.board[c] <= D_PEARL:
                    out[n] = A_PRIVILEGE + c
                    n += 1
        if s.phase == PH_MAIN and s.bag_len > 0:
            out[n] = A_REPLENISH
            n += 1
        n = _mandatory(s, out, n, all_payments)
        if n == 0:
            out[0] = A_PASS
            n = 1
    elif s.phase == PH_RESERVE:
        n = cg_reserve_actions(s.pyramid, D_PYRAMID, s.deck_len, A_RESERVE, A_RES_DECK, out, n)
    elif s.phase == PH_JOKER:
        for c in range(5):
            if p.bonus[c] > 0:
                out[n] = A_JOKER + c
                n += 1
    elif s.phase == PH_TOKEN:
        for c in range(D_CELLS):
            if s.board[c] == C_COLOR[s.pending]:
                out[n] = A_TOKEN + c
                n += 1
    elif s.phase == PH_STEAL:
        for k in range(6):
            if o.tokens[k] > 0:
                out[n] = A_STEAL + k
                n += 1
    elif s.phase == PH_ROYAL:
        for k in range(D_NROYALS):
            if (s.royals >> k) & 1:
                out[n] = A_ROYAL + k
                n += 1
    elif s.phase == PH_DISCARD:
        for k in range(D_KINDS):
            if p.tokens[k] > 0:
                out[n] = A_DISCARD + k
                n += 1
    return n


cdef int d_search_actions(const void* s, int* out) noexcept nogil:
    return _actions(<const DState*>s, out, False)


cdef int d_legal_actions(const void* s, int* out) noexcept nogil:
    return _actions(<const DState*>s, out, True)


cdef int d_n_players(const void* s) noexcept nogil:
    return 2


cdef int d_current_player(const void* s) noexcept nogil:
    cdef const DState* st = <const DState*>s
    return -1 if st.phase == PH_OVER else st.current


# ---------------------------------------------------------------------------- apply
cdef inline void _bag_insert(DState* s, int kind) noexcept nogil:
    """A token enters the bag at a seeded random place of its draw order (spec.bag_insert).
    A view does not know the order: it only keeps the contents."""
    cdef uint64_t z
    cdef int at, i
    if s.observer >= 0:
        s.bag[s.bag_len] = kind
        s.bag_len += 1
        return
    z = splitmix64(&s.bag_seed)
    at = <int>(((z >> 32) * <uint64_t>(s.bag_len + 1)) >> 32)
    i = s.bag_len
    while i > at:
        s.bag[i] = s.bag[i - 1]
        i -= 1
    s.bag[at] = kind
    s.bag_len += 1


cdef inline void _gain_privilege(DState* s, int seat) noexcept nogil:
    """From the supply, else from the opponent; nothing at 3."""
    if s.privileges > 0:
        s.privileges -= 1
        s.p[seat].privileges += 1
    elif s.p[1 - seat].privileges > 0:
        s.p[1 - seat].privileges -= 1
        s.p[seat].privileges += 1


cdef inline void _take_cell(DState* s, DPlayer* p, int cell) noexcept nogil:
    p.tokens[s.board[cell]] += 1
    s.board[cell] = -1


cdef void _replenish(DState* s) noexcept nogil:
    cdef int i, j = 0
    for i in range(D_CELLS):
        if j >= s.bag_len:
            break
        if s.board[SPIRAL[i]] < 0:
            s.board[SPIRAL[i]] = s.bag[j]
            j += 1
    s.bag_len = 0
    _gain_privilege(s, 1 - s.current)
    s.phase = PH_MANDATORY


cdef void _take_line(DState* s, DPlayer* p, int line) noexcept nogil:
    cdef int k, n = LINE_LEN[line], pearls = 0
    cdef int a = s.board[LINE_CELL[line][0]]
    cdef bint same = n == 3
    for k in range(n):
        if s.board[LINE_CELL[line][k]] != a:
            same = False
        if s.board[LINE_CELL[line][k]] == D_PEARL:
            pearls += 1
        _take_cell(s, p, LINE_CELL[line][k])
    if same or pearls == 2:
        _gain_privilege(s, 1 - s.current)


cdef inline int _from_pyramid(DState* s, int slot) noexcept nogil:
    """The card leaves its slot, replaced from its deck (an empty deck leaves it empty)."""
    cdef int cid = s.pyramid[slot], lv = SLOT_LEVEL[slot]
    if s.deck_len[lv] > 0:
        s.deck_len[lv] -= 1
        s.pyramid[slot] = s.deck[lv][s.deck_len[lv]]
    else:
        s.pyramid[slot] = -1
    return cid


cdef void _reserve(DState* s, DPlayer* p, int a) noexcept nogil:
    cdef int cid, lv
    if a >= A_RES_DECK:
        lv = a - A_RES_DECK
        s.deck_len[lv] -= 1
        cid = s.deck[lv][s.deck_len[lv]]
        p.res_blind[p.n_res] = 1
    else:
        cid = _from_pyramid(s, a - A_RESERVE)
        lv = C_LEVEL[cid] - 1
        p.res_blind[p.n_res] = 0
    p.res[p.n_res] = cid
    p.res_level[p.n_res] = lv + 1
    p.n_res += 1


cdef void _end_of_turn(DState* s) noexcept nogil:
    cdef DPlayer* p = &s.p[s.current]
    if _total(p) > 10:
        s.phase = PH_DISCARD
        return
    s.turn += 1
    if _has_won(p):
        s.phase = PH_OVER
        s.extra_turn = 0
        return
    if s.extra_turn:
        s.extra_turn = 0
    else:
        s.current = 1 - s.current
    s.phase = PH_MAIN


cdef inline void _crowns(DState* s) noexcept nogil:
    if _royals_due(&s.p[s.current]) > 0 and s.royals:
        s.phase = PH_ROYAL
    else:
        _end_of_turn(s)


cdef inline bint _can_steal(const DState* s) noexcept nogil:
    cdef const DPlayer* o = &s.p[1 - s.current]
    return (o.tokens[0] + o.tokens[1] + o.tokens[2] + o.tokens[3] + o.tokens[4] + o.tokens[5]) > 0


cdef inline void _add_card(DPlayer* p, int cid) noexcept nogil:
    p.owned[cid >> 6] |= (<uint64_t>1) << (cid & 63)
    p.points += C_POINTS[cid]
    p.crowns += C_CROWNS[cid]
    if C_COLOR[cid] < 5:
        p.bonus[C_COLOR[cid]] += C_BONUS[cid]
        p.color_points[C_COLOR[cid]] += C_POINTS[cid]


cdef inline void _color_joker(DState* s, DPlayer* p, int cid, int color) noexcept nogil:
    s.joker_color[C_JOKER[cid]] = color
    p.bonus[color] += C_BONUS[cid]
    p.color_points[color] += C_POINTS[cid]


cdef void _gain_card(DState* s, DPlayer* p, int cid) noexcept nogil:
    cdef int ab = C_ABIL[cid], c, cell
    _add_card(p, cid)
    if ab & AB_EXTRA:
        s.extra_turn = 1
    if ab & AB_PRIVILEGE:
        _gain_privilege(s, s.current)
    if ab & AB_WILD:
        s.pending = cid
        s.phase = PH_JOKER
        return
    if ab & AB_TOKEN:
        c = C_COLOR[cid]
        for cell in range(D_CELLS):
            if s.board[cell] == c:
                s.pending = cid
                s.phase = PH_TOKEN
                return
    if ab & AB_STEAL and _can_steal(s):
        s.phase = PH_STEAL
        return
    _crowns(s)


cdef void _buy(DState* s, DPlayer* p, int target, int variant) noexcept nogil:
    cdef int cid = _target_card(s, target)
    cdef int k, i, gold
    cdef int held[6]
    gold = _shortfall(p, cid, held)
    for k in range(6):
        held[k] -= PAY[variant][k]
        gold += PAY[variant][k]
        for i in range(held[k]):
            p.tokens[k] -= 1
            _bag_insert(s, k)
    for i in range(gold):
        p.tokens[D_GOLD] -= 1
        _bag_insert(s, D_GOLD)
    if target < D_PYRAMID:
        _from_pyramid(s, target)
    else:
        for i in range(target - D_PYRAMID, p.n_res - 1):
            p.res[i] = p.res[i + 1]
            p.res_level[i] = p.res_level[i + 1]
            p.res_blind[i] = p.res_blind[i + 1]
        p.n_res -= 1
    _gain_card(s, p, cid)


cdef void _take_royal(DState* s, DPlayer* p, int rid) noexcept nogil:
    s.royals &= ~(1 << rid)
    p.royals |= 1 << rid
    p.n_royals += 1
    p.points += R_POINTS[rid]
    if R_ABIL[rid] & AB_EXTRA:
        s.extra_turn = 1
    if R_ABIL[rid] & AB_PRIVILEGE:
        _gain_privilege(s, s.current)
    if R_ABIL[rid] & AB_STEAL and _can_steal(s):
        s.phase = PH_STEAL
        return
    _crowns(s)


cdef void d_apply(void* state, int a) noexcept nogil:
    cdef DState* s = <DState*>state
    cdef DPlayer* p = &s.p[s.current]
    cdef int k
    if a < A_REPLENISH:
        p.privileges -= 1
        s.privileges += 1
        _take_cell(s, p, a - A_PRIVILEGE)
    elif a == A_REPLENISH:
        _replenish(s)
    elif a < A_GOLD:
        _take_line(s, p, a - A_TAKE)
        _end_of_turn(s)
    elif a < A_RESERVE:
        _take_cell(s, p, a - A_GOLD)
        s.phase = PH_RESERVE
    elif a < A_TOKEN:
        _reserve(s, p, a)
        _end_of_turn(s)
    elif a < A_STEAL:
        _take_cell(s, p, a - A_TOKEN)
        s.pending = -1
        _crowns(s)
    elif a < A_JOKER:
        k = a - A_STEAL
        s.p[1 - s.current].tokens[k] -= 1
        p.tokens[k] += 1
        _crowns(s)
    elif a < A_ROYAL:
        _color_joker(s, p, s.pending, a - A_JOKER)
        s.pending = -1
        _crowns(s)
    elif a < A_DISCARD:
        _take_royal(s, p, a - A_ROYAL)
    elif a < A_PASS:
        k = a - A_DISCARD
        p.tokens[k] -= 1
        _bag_insert(s, k)
        _end_of_turn(s)
    elif a == A_PASS:
        _end_of_turn(s)
    else:
        k = (a - A_BUY) // D_NPAY
        _buy(s, p, k, (a - A_BUY) - k * D_NPAY)


cdef void d_returns(const void* state, double* out) noexcept nogil:
    cdef const DState* s = <const DState*>state
    out[0] = 0.0
    out[1] = 0.0
    if s.phase == PH_OVER:
        out[s.current] = 1.0


cdef void d_resample(void* state, int seat, Rng* rng) noexcept nogil:
    """Decks and the other seat's blind reserves from the unseen cards; the bag's order and
    seed anew."""
    cdef DState* s = <DState*>state
    cdef int counts[D_KINDS]
    cdef int i, j, k, r, tmp
    cg_redraw_cards(s, 2, s.pyramid, D_PYRAMID, C_LEVEL, D_NCARDS, seat, rng)
    # The bag's order is hidden too: it is shuffled from a canonical order (its tokens sorted
    # by kind, as resample_position in spec.py), never from its true order, so that the
    # redraw depends only on what `seat` can see.
    for k in range(D_KINDS):
        counts[k] = 0
    for i in range(s.bag_len):
        counts[s.bag[i]] += 1
    i = 0
    for k in range(D_KINDS):
        for j in range(counts[k]):
            s.bag[i] = k
            i += 1
    for i in range(s.bag_len - 1, 0, -1):
        r = rng_below(rng, i + 1)
        tmp = s.bag[i]
        s.bag[i] = s.bag[r]
        s.bag[r] = tmp
    s.bag_seed = rng_next(rng)


# ---------------------------------------------------------------------------- heuristics
include "duel_heuristics.pxi"

include "duel_features.pxi"

cdef GameDef GAME_DEF  # the core's entry in the search's table (game.pxd); game_def() hands it out
game_def_init(&GAME_DEF, "duel", sizeof(DState), D_MAX_SEARCH_ACTIONS, A_NUM, 2, d_n_players,
              d_current_player, d_search_actions, d_apply, d_returns, d_resample, d_evaluate, d_rollout_action,
              d_priors, D_NUM_FEATURES, D_POLICY_SIZE, d_features, d_policy_index)


# ---------------------------------------------------------------------------- Python face
include "coreface.pxi"


cdef class CoreState(CoreFace):
    """A Splendor Duel state in the Cython core (see splendor_ai/games/state.py for the API;
    what every core shares is CoreFace, ext/coreface.pxi)."""

    cdef DState s

    game = _spec.GAME
    _spec = _spec

    def __cinit__(self):
        self.block = <char*>&self.s
        self.gd = &GAME_DEF
        self.all_actions = d_legal_actions

    @staticmethod
    def from_position(pos):
        """From a validated position dictionary (spec.validate_position / initial_position)."""
        cdef CoreState st = CoreState.__new__(CoreState)
        cdef DState* s = &st.s
        cdef DPlayer* p
        cdef int i, j, k, lv, cid
        memset(s, 0, sizeof(DState))
        memset(s.joker_color, -1, sizeof(s.joker_color))
        cg_read_turn(s, pos, _spec.PHASES)
        s.extra_turn = pos["extra_turn"]
        s.pending = -1 if pos["pending_card"] is None else pos["pending_card"]
        s.privileges = pos["privileges"]
        for i in range(D_CELLS):
            s.board[i] = pos["board"][i // 5][i % 5]
        if pos["observer"] is None:
            bag = pos["bag"]
            s.bag_seed = pos["bag_seed"]
        else:
            contents = _spec.bag_contents(pos)
            bag = [k for k in range(D_KINDS) for _ in range(contents[k])]
        s.bag_len = len(bag)
        for i, k in enumerate(bag):
            s.bag[i] = k
        for lv in range(3):
            for j, cid in enumerate(pos["pyramid"][lv]):
                s.pyramid[_spec.SLOT_OFFSET[lv] + j] = cid
        for rid in pos["royals"]:
            s.royals |= 1 << rid
        for i, seat in enumerate(pos["seats"]):
            p = &s.p[i]
            cg_read_seat(p, seat, D_KINDS)
            for cid in seat["cards"]:
                _add_card(p, cid)
            for e in seat["jokers"]:
                _color_joker(s, p, e["card"], e["color"])
            p.privileges = seat["privileges"]
            for rid in seat["royals"]:
                p.royals |= 1 << rid
                p.n_royals += 1
                p.points += R_POINTS[rid]
        return st

    def to_position(self):
        """The canonical position dictionary (docs/duel.md)."""
        cdef DState* s = &self.s
        cdef DPlayer* p
        cdef int i, j, lv
        seats = []
        for i in range(2):
            p = &s.p[i]
            seat = cg_seat_fields(p, D_KINDS, D_NCARDS)
            seat["jokers"] = [{"card": j, "color": s.joker_color[C_JOKER[j]]} for j in seat["cards"]
                              if C_JOKER[j] >= 0 and s.joker_color[C_JOKER[j]] >= 0]
            seat["privileges"] = p.privileges
            seat["royals"] = [j for j in range(D_NROYALS) if (p.royals >> j) & 1]
            seats.append(seat)
        pos = {
            "game": _spec.GAME,
            "players": 2,
            **cg_turn_fields(s, _spec.PHASES),
            "extra_turn": bool(s.extra_turn),
            "pending_card": None if s.pending < 0 else s.pending,
            "board": [[s.board[i * 5 + j] for j in range(5)] for i in range(5)],
            "bag": None if s.observer >= 0 else [s.bag[j] for j in range(s.bag_len)],
            "bag_seed": None if s.observer >= 0 else s.bag_seed,
            "bag_contents": None,
            "privileges": s.privileges,
            "pyramid": [[s.pyramid[_spec.SLOT_OFFSET[lv] + j] for j in range(_spec.SLOTS[lv])] for lv in range(3)],
            **cg_deck_fields(s),
            "royals": [j for j in range(D_NROYALS) if (s.royals >> j) & 1],
            "seats": seats,
            "observer": None if s.observer < 0 else s.observer,
        }
        pos["bag_contents"] = _spec.bag_contents(pos)
        return pos

    def phase(self):
        return _spec.PHASES[self.s.phase]

    def points(self, int seat):
        return self.s.p[seat].points

    def crowns(self, int seat):
        return self.s.p[seat].crowns

    def bonuses(self, int seat):
        return [self.s.p[seat].bonus[c] for c in range(5)]

    cdef _check_known(self):
        cdef DPlayer* p = &self.s.p[self.s.current]
        cdef int j
        if self.s.phase == PH_MAIN or self.s.phase == PH_MANDATORY:
            for j in range(p.n_res):
                if p.res[j] < 0:
                    raise HiddenInformationError(
                        f"seat {self.s.current} holds a card this view does not know: "
                        "its moves depend on it (resample first)")

    cdef str _hidden_draw(self, int a):
        """Why this legal action needs what a view does not know, or None."""
        cdef int slot = -1
        if self.s.observer < 0:
            return None
        if a == A_REPLENISH:
            return "a replenish draws the bag's tokens in an order this view does not know"
        if A_RES_DECK <= a < A_TOKEN:
            return f"a blind reserve draws the unknown top card of deck {a - A_RES_DECK + 1}"
        if A_RESERVE <= a < A_RES_DECK:
            slot = a - A_RESERVE
        elif a >= A_BUY and (a - A_BUY) // D_NPAY < D_PYRAMID:
            slot = (a - A_BUY) // D_NPAY
        if slot >= 0 and self.s.deck_len[SLOT_LEVEL[slot]] > 0:
            return f"the slot is refilled with the unknown top card of deck {SLOT_LEVEL[slot] + 1}"
        return None

    def features(self):
        """The learned evaluation's input for the seat to act (features.py): NUM_FEATURES
        float32 values in native byte order."""
        cdef float out[D_NUM_FEATURES]
        cdef int j
        if self.s.phase == PH_OVER:
            raise ValueError("the game is over: no seat is to act")
        for j in range(self.s.p[self.s.current].n_res):
            if self.s.p[self.s.current].res[j] < 0:
                raise HiddenInformationError(
                    f"seat {self.s.current} is to act but this view does not know its reserved cards")
        d_features(&self.s, out)
        return PyBytes_FromStringAndSize(<char*>out, sizeof(out))
