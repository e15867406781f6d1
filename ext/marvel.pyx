# The Splendor: Marvel core: the whole state in one fixed-size struct (MState, marvel.pxd),
# move generation and apply as noexcept nogil C functions, and CoreState, the Python face
# that satisfies the State protocol of splendor_ai/games/state.py.
#
# The rules are those of splendor_ai/games/marvel/reference.py (the executable
# specification); the parity test (tests/test_marvel_parity.py) compares the two after every
# action. The layout follows ext/base.pyx wherever the games agree.
from libc.stdint cimport int8_t, int32_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from rng cimport Rng, rng_seed, rng_below, rng_uniform
from marvel cimport *
from game cimport GameDef

from splendor_ai.games.marvel import spec as _spec
from splendor_ai.games.errors import HiddenInformationError, IllegalActionError, PositionError

# ---------------------------------------------------------------------------- tables
cdef int8_t C_LEVEL[M_NCARDS]
cdef int8_t C_COLOR[M_NCARDS]
cdef int8_t C_POINTS[M_NCARDS]
cdef int8_t C_ICONS[M_NCARDS]
cdef int8_t C_STONE[M_NCARDS]           # 1: the Time Stone icon
cdef int8_t C_COST[M_NCARDS][5]
cdef uint64_t STONE_MASK[2]             # bit per card id with the Time Stone icon
cdef int8_t L_REQ[M_NLOCATIONS][5]
cdef int8_t L_POINTS[M_NLOCATIONS]
cdef int8_t PAY[M_NPAY][5]
cdef int8_t PAY_SUM[M_NPAY]
cdef int8_t TAKE3_SET[10][3]
cdef int8_t TAKE2D_INDEX[5][5]
cdef int8_t TAKE2D_SET[10][2]


cdef void _init_tables():
    cdef int i, c
    STONE_MASK[0] = 0
    STONE_MASK[1] = 0
    for card in _spec.CARDS:
        i = card.id
        C_LEVEL[i] = card.level
        C_COLOR[i] = card.color
        C_POINTS[i] = card.points
        C_ICONS[i] = card.avengers
        C_STONE[i] = card.time_stone
        if card.time_stone:
            STONE_MASK[i >> 6] |= (<uint64_t>1) << (i & 63)
        for c in range(5):
            C_COST[i][c] = card.cost[c]
    for loc in _spec.LOCATIONS:
        L_POINTS[loc.id] = loc.points
        for c in range(5):
            L_REQ[loc.id][c] = loc.requires[c]
    for i, v in enumerate(_spec.PAY_VARIANTS):
        PAY_SUM[i] = sum(v)
        for c in range(5):
            PAY[i][c] = v[c]
    for i, t in enumerate(_spec.TAKE3_SETS):
        for c in range(3):
            TAKE3_SET[i][c] = t[c]
    for i, t in enumerate(_spec.TAKE2_DIFF_SETS):
        TAKE2D_INDEX[t[0]][t[1]] = i
        TAKE2D_INDEX[t[1]][t[0]] = i
        TAKE2D_SET[i][0] = t[0]
        TAKE2D_SET[i][1] = t[1]


_init_tables()

# ---------------------------------------------------------------------------- helpers
cdef inline int _total(const MPlayer* p) noexcept nogil:
    cdef int k, n = 0
    for k in range(M_KINDS):
        n += p.tokens[k]
    return n


cdef inline void _power(const MPlayer* p, int* pw) noexcept nogil:
    """What the player can pay per colour without grey: bonuses plus stones."""
    cdef int c
    for c in range(5):
        pw[c] = p.bonus[c] + p.tokens[c]


cdef inline int _missing(int cid, const int* pw, int* d) noexcept nogil:
    """Stones still missing per colour for card cid (into d); returns their sum (the grey needed)."""
    cdef int c, x, m = 0
    for c in range(5):
        x = C_COST[cid][c] - pw[c]
        if x < 0:
            x = 0
        d[c] = x
        m += x
    return m


cdef inline int _target_card(const MState* s, int target) noexcept nogil:
    """Card id at a buy/reserve target (board slot 0..11, own reserve 12..14), or -1."""
    cdef const MPlayer* p
    if target < 12:
        return s.board[target >> 2][target & 3]
    p = &s.p[s.current]
    if target - 12 < p.n_res:
        return p.res[target - 12]
    return -1


cdef inline bint _location_qualifies(const MPlayer* p, int lid) noexcept nogil:
    cdef int c
    for c in range(5):
        if p.bonus[c] < L_REQ[lid][c]:
            return False
    return True


cdef inline bint _meets_gauntlet(const MPlayer* p) noexcept nogil:
    """16+ points, a bonus of each colour, a green token."""
    cdef int c
    if p.points < M_GAUNTLET_POINTS or p.tokens[M_GREEN] < 1:
        return False
    for c in range(5):
        if p.bonus[c] < 1:
            return False
    return True


cdef int _main_actions(const MState* s, int* out, bint all_payments) noexcept nogil:
    cdef const MPlayer* p = &s.p[s.current]
    cdef int n = 0, c, i, k = 0, lv, t, cid, short, v, stones
    cdef int a0 = -1, a1 = -1
    cdef int pw[5]
    cdef int d[5]
    cdef bint ok
    # 1. three different colours (fewer only when fewer than 3 colours are left)
    for c in range(5):
        if s.supply[c] > 0:
            k += 1
            if a0 < 0:
                a0 = c
            elif a1 < 0:
                a1 = c
    if k >= 3:
        for i in range(10):
            if s.supply[TAKE3_SET[i][0]] > 0 and s.supply[TAKE3_SET[i][1]] > 0 and s.supply[TAKE3_SET[i][2]] > 0:
                out[n] = MA_TAKE3 + i
                n += 1
    else:
        if k == 2:
            out[n] = MA_TAKE2D + TAKE2D_INDEX[a0][a1]
            n += 1
        for c in range(5):
            if s.supply[c] > 0:
                out[n] = MA_TAKE1 + c
                n += 1
    # 2. two of one colour from a pile of 4 or more
    for c in range(5):
        if s.supply[c] >= 4:
            out[n] = MA_TAKE2S + c
            n += 1
    # 3. reserve
    if p.n_res < M_MAX_RES:
        for t in range(12):
            if s.board[t >> 2][t & 3] >= 0:
                out[n] = MA_RES_BOARD + t
                n += 1
        for lv in range(3):
            if s.deck_len[lv] > 0:
                out[n] = MA_RES_DECK + lv
                n += 1
    # 4. recruit
    _power(p, pw)
    for t in range(15):
        cid = _target_card(s, t)
        if cid < 0:
            continue
        short = _missing(cid, pw, d)
        if short > p.tokens[M_GREY]:
            continue
        out[n] = MA_BUY + t * M_NPAY
        n += 1
        if all_payments and p.tokens[M_GREY] > short:
            for v in range(1, M_NPAY):
                if PAY_SUM[v] > p.tokens[M_GREY] - short:
                    continue
                ok = True
                for c in range(5):
                    stones = C_COST[cid][c] - p.bonus[c]
                    if stones > p.tokens[c]:
                        stones = p.tokens[c]
                    if stones < 0:
                        stones = 0
                    if PAY[v][c] > stones:
                        ok = False
                        break
                if ok:
                    out[n] = MA_BUY + t * M_NPAY + v
                    n += 1
    if n == 0:
        out[0] = MA_PASS
        n = 1
    return n


cdef int _phase_actions(const MState* s, int* out, bint all_payments) noexcept nogil:
    cdef const MPlayer* p
    cdef int n = 0, k, i, j, tmp
    if s.phase == MPH_MAIN:
        return _main_actions(s, out, all_payments)
    p = &s.p[s.current]
    if s.phase == MPH_RETURN:
        for k in range(M_KINDS):
            if k != M_GREEN and p.tokens[k] > 0:   # green can never be returned
                out[n] = MA_RETURN + k
                n += 1
        return n
    if s.phase == MPH_LOCATION:
        for i in range(s.n_locations):
            if _location_qualifies(p, s.locations[i]):
                out[n] = MA_LOCATION + s.locations[i]
                n += 1
        for i in range(1, n):  # sort by id (at most 4)
            j = i
            while j > 0 and out[j - 1] > out[j]:
                tmp = out[j]
                out[j] = out[j - 1]
                out[j - 1] = tmp
                j -= 1
        return n
    return 0


cdef int m_search_actions(const void* s, int* out) noexcept nogil:
    return _phase_actions(<const MState*>s, out, False)


cdef int m_legal_actions(const MState* s, int* out) noexcept nogil:
    return _phase_actions(s, out, True)


cdef int m_n_players(const void* s) noexcept nogil:
    return (<const MState*>s).n_players


cdef int m_current_player(const void* s) noexcept nogil:
    cdef const MState* st = <const MState*>s
    return -1 if st.phase == MPH_OVER else st.current


# ---------------------------------------------------------------------------- apply
cdef inline void _refill(MState* s, int lv, int slot) noexcept nogil:
    """A face-up card left its slot: replace it from the deck of its level, if any."""
    if s.deck_len[lv] > 0:
        s.deck_len[lv] -= 1
        s.board[lv][slot] = s.deck[lv][s.deck_len[lv]]
    else:
        s.board[lv][slot] = -1


cdef inline void _reserve(MState* s, MPlayer* p, int cid, int lv, bint blind) noexcept nogil:
    p.res[p.n_res] = cid
    p.res_level[p.n_res] = lv + 1
    p.res_blind[p.n_res] = blind
    p.n_res += 1
    if s.supply[M_GREY] > 0:
        s.supply[M_GREY] -= 1
        p.tokens[M_GREY] += 1


cdef void _recruit(MState* s, MPlayer* p, int target, int variant) noexcept nogil:
    cdef int cid = _target_card(s, target)
    cdef int c, need, stones, grey = 0, i
    cdef bint first_stone
    for c in range(5):
        need = C_COST[cid][c] - p.bonus[c]
        if need < 0:
            need = 0
        stones = need if need < p.tokens[c] else p.tokens[c]
        stones -= PAY[variant][c]
        grey += need - stones
        p.tokens[c] -= stones
        s.supply[c] += stones
    p.tokens[M_GREY] -= grey
    s.supply[M_GREY] += grey
    # The Time Stone: the first card with the icon gives 1 green (one per player at most).
    first_stone = C_STONE[cid] and not (p.owned[0] & STONE_MASK[0]) and not (p.owned[1] & STONE_MASK[1])
    if first_stone and p.tokens[M_GREEN] == 0 and s.supply[M_GREEN] > 0:
        s.supply[M_GREEN] -= 1
        p.tokens[M_GREEN] += 1
    p.owned[cid >> 6] |= (<uint64_t>1) << (cid & 63)
    p.bonus[C_COLOR[cid]] += 1
    p.points += C_POINTS[cid]
    p.icons += C_ICONS[cid]
    p.n_cards += 1
    if target < 12:
        _refill(s, target >> 2, target & 3)
    else:
        for i in range(target - 12, p.n_res - 1):
            p.res[i] = p.res[i + 1]
            p.res_level[i] = p.res_level[i + 1]
            p.res_blind[i] = p.res_blind[i + 1]
        p.n_res -= 1


cdef bint _avengers_assemble(MState* s) noexcept nogil:
    """First to 3 icons takes the tile; later only strictly more icons take it. Returns whether
    the tile came to the seat to act."""
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
    cdef int i, j = 0
    for i in range(s.n_locations):
        if s.locations[i] != lid:
            s.locations[j] = s.locations[i]
            j += 1
    s.n_locations = j
    p.locations |= <uint8_t>(1 << lid)
    p.points += L_POINTS[lid]


cdef void _finish_turn(MState* s, bint dead_turn) noexcept nogil:
    """The Gauntlet trigger, then the next seat, the undone trigger or the end of the game."""
    cdef int i
    cdef bint over = False
    if _meets_gauntlet(&s.p[s.current]):
        s.final_round = 1
    if dead_turn:
        s.passes += 1
    else:
        s.passes = 0
    s.turn += 1
    if s.final_round and s.current == (s.start + s.n_players - 1) % s.n_players:
        for i in range(s.n_players):
            if _meets_gauntlet(&s.p[i]):
                over = True
        if not over:
            s.final_round = 0   # nobody meets the condition any more: the trigger is undone
    if over or s.passes >= s.n_players:
        s.phase = MPH_OVER
    else:
        s.current = (s.current + 1) % s.n_players
        s.phase = MPH_MAIN


cdef void _end_of_turn(MState* s, bint was_pass) noexcept nogil:
    """After the token limit: the Avengers tile, then a location (chosen when several)."""
    cdef MPlayer* p = &s.p[s.current]
    cdef int i, count = 0, found = -1
    cdef bint tile = _avengers_assemble(s)
    for i in range(s.n_locations):
        if _location_qualifies(p, s.locations[i]):
            count += 1
            found = s.locations[i]
    if count >= 2:
        s.phase = MPH_LOCATION
        return
    if count == 1:
        _take_location(s, p, found)
    _finish_turn(s, was_pass and not tile and count == 0)


cdef void m_apply(void* state, int a) noexcept nogil:
    cdef MState* s = <MState*>state
    cdef MPlayer* p = &s.p[s.current]
    cdef int c, t, lv
    if s.phase == MPH_RETURN:
        c = a - MA_RETURN
        p.tokens[c] -= 1
        s.supply[c] += 1
        if _total(p) <= 10:
            _end_of_turn(s, False)
        return
    if s.phase == MPH_LOCATION:
        _take_location(s, p, a - MA_LOCATION)
        _finish_turn(s, False)
        return
    if a < MA_TAKE2D:
        for c in range(3):
            s.supply[TAKE3_SET[a][c]] -= 1
            p.tokens[TAKE3_SET[a][c]] += 1
    elif a < MA_TAKE1:
        for c in range(2):
            s.supply[TAKE2D_SET[a - MA_TAKE2D][c]] -= 1
            p.tokens[TAKE2D_SET[a - MA_TAKE2D][c]] += 1
    elif a < MA_TAKE2S:
        c = a - MA_TAKE1
        s.supply[c] -= 1
        p.tokens[c] += 1
    elif a < MA_RES_BOARD:
        c = a - MA_TAKE2S
        s.supply[c] -= 2
        p.tokens[c] += 2
    elif a < MA_RES_DECK:
        t = a - MA_RES_BOARD
        lv = t >> 2
        _reserve(s, p, s.board[lv][t & 3], lv, False)
        _refill(s, lv, t & 3)
    elif a < MA_RETURN:
        lv = a - MA_RES_DECK
        s.deck_len[lv] -= 1
        _reserve(s, p, s.deck[lv][s.deck_len[lv]], lv, True)
    elif a >= MA_BUY:
        t = (a - MA_BUY) // M_NPAY
        _recruit(s, p, t, (a - MA_BUY) - t * M_NPAY)
    # MA_PASS: nothing to do.
    if _total(p) > 10:
        s.phase = MPH_RETURN
    else:
        _end_of_turn(s, a == MA_PASS)


cdef void m_returns(const void* state, double* out) noexcept nogil:
    """Only seats meeting the Gauntlet condition can win: most points, then the Avengers
    tile, then fewest cards, then a shared win. Nobody meeting it: all 0."""
    cdef const MState* s = <const MState*>state
    cdef int i, best = -1, fewest = 1000, winners = 0
    cdef bint eligible[M_MAX_PLAYERS]
    for i in range(s.n_players):
        out[i] = 0.0
    if s.phase != MPH_OVER:
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
    cdef MState* s = <MState*>state
    cdef uint64_t seen[2]
    cdef int8_t pool[3][M_MAX_DECK + M_MAX_RES * M_MAX_PLAYERS]
    cdef int pool_len[3]
    cdef int i, j, lv, cid, r, tmp
    cdef MPlayer* p
    seen[0] = 0
    seen[1] = 0
    for lv in range(3):
        pool_len[lv] = 0
        for j in range(4):
            cid = s.board[lv][j]
            if cid >= 0:
                seen[cid >> 6] |= (<uint64_t>1) << (cid & 63)
    for i in range(s.n_players):
        p = &s.p[i]
        seen[0] |= p.owned[0]
        seen[1] |= p.owned[1]
        for j in range(p.n_res):
            if (i == seat or not p.res_blind[j]) and p.res[j] >= 0:
                cid = p.res[j]
                seen[cid >> 6] |= (<uint64_t>1) << (cid & 63)
    for cid in range(M_NCARDS):
        if not (seen[cid >> 6] >> (cid & 63)) & 1:
            lv = C_LEVEL[cid] - 1
            pool[lv][pool_len[lv]] = cid
            pool_len[lv] += 1
    for lv in range(3):  # Fisher-Yates
        for i in range(pool_len[lv] - 1, 0, -1):
            r = rng_below(rng, i + 1)
            tmp = pool[lv][i]
            pool[lv][i] = pool[lv][r]
            pool[lv][r] = tmp
    for i in range(s.n_players):
        if i == seat:
            continue
        p = &s.p[i]
        for j in range(p.n_res):
            if p.res_blind[j]:
                lv = p.res_level[j] - 1
                pool_len[lv] -= 1
                p.res[j] = pool[lv][pool_len[lv]]
    for lv in range(3):
        for j in range(s.deck_len[lv]):
            s.deck[lv][j] = pool[lv][j]
    s.observer = -1


cdef int m_random_playout(MState* s, Rng* rng, int max_actions) noexcept nogil:
    """Plays uniformly random search actions until the end (or max_actions); returns the count."""
    cdef int acts[M_MAX_SEARCH_ACTIONS]
    cdef int n, count = 0
    while s.phase != MPH_OVER and count < max_actions:
        n = m_search_actions(s, acts)
        m_apply(s, acts[rng_below(rng, n)])
        count += 1
    return count


# ---------------------------------------------------------------------------- heuristics
# Used by the search (through MARVEL_DEF): a cheap evaluation at rollout cut-offs, the rollout
# policy (one action per call, drawn by squared weight) and the tree's priors (one ply of the
# evaluation). Their weights are documented in docs/marvel.md. Unlike the base game, points alone do not win: only a seat
# meeting the Infinity Gauntlet condition (16 points, every colour, a green token) can, so
# the evaluation caps the points a seat can use by how far it is from the other two parts.
from libc.math cimport exp

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
    cdef const MState* s = <const MState*>state
    cdef double best = -1e9, total = 0.0
    cdef int i
    if s.phase == MPH_OVER:
        m_returns(state, out)
        return
    for i in range(s.n_players):
        out[i] = _seat_value(s, i)
        if out[i] > best:
            best = out[i]
    for i in range(s.n_players):
        out[i] = exp((out[i] - best) / EVAL_TEMPERATURE)
        total += out[i]
    for i in range(s.n_players):
        out[i] /= total


cdef inline double _card_appeal(const MPlayer* p, int cid) noexcept nogil:
    """How much a card helps beyond its points: the first Time Stone card (the green token),
    a colour the seat has no bonus of yet, Avengers icons."""
    cdef double x = C_ICONS[cid]
    if C_STONE[cid] and p.tokens[M_GREEN] == 0:
        x += 3.0
    if p.bonus[C_COLOR[cid]] == 0:
        x += 1.5
    return x


cdef inline void _needs(const MState* s, const MPlayer* p, double* need, int* tcard, int* tmiss) noexcept nogil:
    """Per colour, how much the cards within reach (missing at most 6 stones) want it,
    weighted by (1 + points + appeal) / missing; and each target's card and missing count."""
    cdef int pw[5]
    cdef int d[5]
    cdef int c, t, cid, missing
    cdef double share
    _power(p, pw)
    for c in range(5):
        need[c] = 0.0
    for t in range(15):
        cid = _target_card(s, t)
        tcard[t] = cid
        tmiss[t] = 0
        if cid < 0:
            continue
        missing = _missing(cid, pw, d)
        tmiss[t] = missing
        if missing == 0 or missing > 6:
            continue
        share = (1.0 + C_POINTS[cid] + _card_appeal(p, cid)) / missing
        for c in range(5):
            if d[c] > 0:
                need[c] += share


cdef inline double _buy_weight(const MPlayer* p, int cid) noexcept nogil:
    return 6.0 + 4.0 * C_POINTS[cid] + 2.0 * _card_appeal(p, cid)


cdef inline double _reserve_weight(const MPlayer* p, int cid) noexcept nogil:
    return 0.1 + 0.1 * C_POINTS[cid] + (0.3 if C_STONE[cid] and p.tokens[M_GREEN] == 0 else 0.0)


cdef void _action_weights(const MState* s, const int* acts, int n, double* w) noexcept nogil:
    """A positive weight per action: recruiting first (more for points, the first Time Stone
    and missing colours), then useful stones."""
    cdef const MPlayer* p = &s.p[s.current]
    cdef double need[5]
    cdef int tcard[15]
    cdef int tmiss[15]
    cdef int i, a, c, cid
    for c in range(5):
        need[c] = 0.0
    if s.phase == MPH_MAIN:
        _needs(s, p, need, tcard, tmiss)
    for i in range(n):
        a = acts[i]
        if s.phase == MPH_RETURN:
            c = a - MA_RETURN
            w[i] = 0.1 if c == M_GREY else 0.2 + p.tokens[c] - (need[c] if c < 5 else 0)
            if w[i] < 0.05:
                w[i] = 0.05
        elif s.phase == MPH_LOCATION or a == MA_PASS:
            w[i] = 1.0
        elif a >= MA_BUY:
            w[i] = _buy_weight(p, _target_card(s, (a - MA_BUY) // M_NPAY))
        elif a < MA_TAKE2D:
            w[i] = 0.5 + need[TAKE3_SET[a][0]] + need[TAKE3_SET[a][1]] + need[TAKE3_SET[a][2]]
        elif a < MA_TAKE1:
            a -= MA_TAKE2D
            w[i] = 0.4 + need[TAKE2D_SET[a][0]] + need[TAKE2D_SET[a][1]]
        elif a < MA_TAKE2S:
            w[i] = 0.3 + need[a - MA_TAKE1]
        elif a < MA_RES_BOARD:
            w[i] = 0.3 + 1.5 * need[a - MA_TAKE2S]
        elif a < MA_RES_DECK:
            w[i] = _reserve_weight(p, s.board[(a - MA_RES_BOARD) >> 2][(a - MA_RES_BOARD) & 3])
        else:
            w[i] = 0.05


cdef inline int _roulette(const int* acts, double* w, int n, Rng* rng) noexcept nogil:
    """Draws an action with probability proportional to the square of its weight (squaring
    makes the rollouts greedier, which played better than the plain weights)."""
    cdef double total = 0.0, x
    cdef int i
    for i in range(n):
        w[i] = w[i] * w[i]
        total += w[i]
    x = rng_uniform(rng) * total
    for i in range(n):
        x -= w[i]
        if x < 0:
            return acts[i]
    return acts[n - 1]


cdef int m_rollout_action(const void* state, Rng* rng) noexcept nogil:
    """The rollout policy: one action drawn by the (squared) weights of _action_weights.

    In the main phase the moves and their weights are made in one pass over the 15 buy
    targets (the hot path of every rollout); the draw is the same as weighting the sorted
    search actions with _action_weights.
    """
    cdef const MState* s = <const MState*>state
    cdef const MPlayer* p = &s.p[s.current]
    cdef int acts[M_MAX_SEARCH_ACTIONS]
    cdef double w[M_MAX_SEARCH_ACTIONS]
    cdef int tcard[15]
    cdef int tmiss[15]
    cdef double need[5]
    cdef int n = 0, c, i, t, k = 0, a0 = -1, a1 = -1, lv
    if s.phase != MPH_MAIN:
        n = _phase_actions(s, acts, False)
        _action_weights(s, acts, n, w)
        return _roulette(acts, w, n, rng)
    _needs(s, p, need, tcard, tmiss)
    for c in range(5):
        if s.supply[c] > 0:
            k += 1
            if a0 < 0:
                a0 = c
            elif a1 < 0:
                a1 = c
    if k >= 3:
        for i in range(10):
            if s.supply[TAKE3_SET[i][0]] > 0 and s.supply[TAKE3_SET[i][1]] > 0 and s.supply[TAKE3_SET[i][2]] > 0:
                acts[n] = MA_TAKE3 + i
                w[n] = 0.5 + need[TAKE3_SET[i][0]] + need[TAKE3_SET[i][1]] + need[TAKE3_SET[i][2]]
                n += 1
    else:
        if k == 2:
            acts[n] = MA_TAKE2D + TAKE2D_INDEX[a0][a1]
            w[n] = 0.4 + need[a0] + need[a1]
            n += 1
        for c in range(5):
            if s.supply[c] > 0:
                acts[n] = MA_TAKE1 + c
                w[n] = 0.3 + need[c]
                n += 1
    for c in range(5):
        if s.supply[c] >= 4:
            acts[n] = MA_TAKE2S + c
            w[n] = 0.3 + 1.5 * need[c]
            n += 1
    if p.n_res < M_MAX_RES:
        for t in range(12):
            if tcard[t] >= 0:
                acts[n] = MA_RES_BOARD + t
                w[n] = _reserve_weight(p, tcard[t])
                n += 1
        for lv in range(3):
            if s.deck_len[lv] > 0:
                acts[n] = MA_RES_DECK + lv
                w[n] = 0.05
                n += 1
    for t in range(15):
        if tcard[t] >= 0 and tmiss[t] <= p.tokens[M_GREY]:
            acts[n] = MA_BUY + t * M_NPAY
            w[n] = _buy_weight(p, tcard[t])
            n += 1
    if n == 0:
        acts[0] = MA_PASS
        w[0] = 1.0
        n = 1
    return _roulette(acts, w, n, rng)


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
    cdef double q[M_MAX_SEARCH_ACTIONS]
    cdef double values[M_MAX_PLAYERS]
    cdef double best = -1.0, total = 0.0
    cdef int i, seat = s.current
    for i in range(n):
        memcpy(&work, s, sizeof(MState))
        m_apply(&work, acts[i])
        m_evaluate(&work, values)
        q[i] = values[seat]
        if q[i] > best:
            best = q[i]
    for i in range(n):
        q[i] = exp((q[i] - best) / PRIOR_TEMPERATURE)
        total += q[i]
    for i in range(n):
        out[i] = <float>(q[i] / total)


include "marvel_features.pxi"

cdef GameDef MARVEL_DEF
MARVEL_DEF.name = "marvel"
MARVEL_DEF.state_size = sizeof(MState)
MARVEL_DEF.max_actions = M_MAX_SEARCH_ACTIONS
MARVEL_DEF.num_actions = MA_NUM
MARVEL_DEF.max_players = M_MAX_PLAYERS
MARVEL_DEF.n_players = m_n_players
MARVEL_DEF.current_player = m_current_player
MARVEL_DEF.legal_actions = m_search_actions
MARVEL_DEF.apply = m_apply
MARVEL_DEF.returns = m_returns
MARVEL_DEF.resample = m_resample
MARVEL_DEF.evaluate = m_evaluate
MARVEL_DEF.rollout_action = m_rollout_action
MARVEL_DEF.priors = m_priors
MARVEL_DEF.num_features = M_NUM_FEATURES
MARVEL_DEF.policy_size = M_POLICY_SIZE
MARVEL_DEF.features = m_features
MARVEL_DEF.policy_index = m_policy_index


def game_def():
    """The core's GameDef (game.pxd) in a capsule, for the search."""
    return PyCapsule_New(&MARVEL_DEF, b"splendor_ai.GameDef", NULL)


# ---------------------------------------------------------------------------- Python face
_PHASE_NAMES = ("main", "return", "location", "over")
cdef int[MA_NUM] _scratch


def _from_position(pos):
    return CoreState.from_position(pos)


cdef class CoreState:
    """A Splendor: Marvel state in the Cython core (see splendor_ai/games/state.py for the API)."""

    cdef MState s

    game = _spec.GAME

    @property
    def players(self):
        return self.s.n_players

    @staticmethod
    def from_position(pos):
        """From a validated position dictionary (spec.validate_position / initial_position)."""
        cdef CoreState st = CoreState.__new__(CoreState)
        cdef MState* s = &st.s
        cdef MPlayer* p
        cdef int i, j, lv, cid
        memset(s, 0, sizeof(MState))
        memset(s.deck, -1, sizeof(s.deck))
        s.n_players = pos["players"]
        s.current = pos["current"]
        s.start = pos["start_seat"]
        s.phase = _PHASE_NAMES.index(pos["phase"])
        s.final_round = pos["final_round"]
        s.passes = pos["passes"]
        s.observer = -1 if pos["observer"] is None else pos["observer"]
        s.avengers = -1 if pos["avengers"] is None else pos["avengers"]
        s.turn = pos["turn"]
        for i in range(M_KINDS):
            s.supply[i] = pos["supply"][i]
        for lv in range(3):
            for j in range(4):
                s.board[lv][j] = pos["board"][lv][j]
            s.deck_len[lv] = pos["deck_sizes"][lv]
            if pos["decks"] is not None:
                for j, cid in enumerate(pos["decks"][lv]):
                    s.deck[lv][j] = cid
        for i in range(M_MAX_LOCATIONS):
            s.locations[i] = -1
        s.n_locations = len(pos["locations"])
        for i, lid in enumerate(pos["locations"]):
            s.locations[i] = lid
        for i, seat in enumerate(pos["seats"]):
            p = &s.p[i]
            for j in range(M_KINDS):
                p.tokens[j] = seat["tokens"][j]
            for cid in seat["cards"]:
                p.owned[cid >> 6] |= (<uint64_t>1) << (cid & 63)
                p.bonus[C_COLOR[cid]] += 1
                p.points += C_POINTS[cid]
                p.icons += C_ICONS[cid]
                p.n_cards += 1
            for lid in seat["locations"]:
                p.locations |= <uint8_t>(1 << lid)
                p.points += L_POINTS[lid]
            if s.avengers == i:
                p.points += 3
            p.n_res = len(seat["reserved"])
            for j, r in enumerate(seat["reserved"]):
                p.res[j] = -1 if r["card"] is None else r["card"]
                p.res_level[j] = r["level"]
                p.res_blind[j] = r["blind"]
        return st

    def to_position(self):
        """The canonical position dictionary (docs/marvel.md)."""
        cdef MState* s = &self.s
        cdef MPlayer* p
        cdef int i, j, lv
        seats = []
        for i in range(s.n_players):
            p = &s.p[i]
            seats.append({
                "tokens": [p.tokens[j] for j in range(M_KINDS)],
                "cards": [j for j in range(M_NCARDS) if (p.owned[j >> 6] >> (j & 63)) & 1],
                "reserved": [
                    {"card": None if p.res[j] < 0 else p.res[j], "level": p.res_level[j],
                     "blind": bool(p.res_blind[j])}
                    for j in range(p.n_res)
                ],
                "locations": [j for j in range(M_NLOCATIONS) if (p.locations >> j) & 1],
            })
        return {
            "game": _spec.GAME,
            "players": s.n_players,
            "start_seat": s.start,
            "current": s.current,
            "phase": _PHASE_NAMES[s.phase],
            "turn": s.turn,
            "final_round": bool(s.final_round),
            "passes": s.passes,
            "supply": [s.supply[j] for j in range(M_KINDS)],
            "board": [[s.board[lv][j] for j in range(4)] for lv in range(3)],
            "decks": None if s.observer >= 0 else
                [[s.deck[lv][j] for j in range(s.deck_len[lv])] for lv in range(3)],
            "deck_sizes": [s.deck_len[lv] for lv in range(3)],
            "locations": [s.locations[j] for j in range(s.n_locations)],
            "avengers": None if s.avengers < 0 else s.avengers,
            "seats": seats,
            "observer": None if s.observer < 0 else s.observer,
        }

    def _state_bytes(self):
        """The raw state block, for the search (its GameDef reads it)."""
        return PyBytes_FromStringAndSize(<char*>&self.s, sizeof(MState))

    @staticmethod
    def _from_state_bytes(bytes data):
        cdef CoreState st
        if len(data) != sizeof(MState):
            raise ValueError("state block of the wrong size")
        st = CoreState.__new__(CoreState)
        memcpy(&st.s, <const char*>data, sizeof(MState))
        return st

    def __reduce__(self):
        return (_from_position, (self.to_position(),))

    def __repr__(self):
        return f"<CoreState marvel {self.s.n_players}p turn {self.s.turn} {_PHASE_NAMES[self.s.phase]}>"

    def __str__(self):
        text = _spec.render_position(self.to_position())
        if self.s.phase == MPH_OVER:
            text += "\nover, returns " + " ".join(f"{r:g}" for r in self.returns())
        return text

    def current_player(self):
        return m_current_player(&self.s)

    def phase(self):
        return _PHASE_NAMES[self.s.phase]

    def is_terminal(self):
        return self.s.phase == MPH_OVER

    def points(self, int seat):
        return self.s.p[seat].points

    def bonuses(self, int seat):
        return [self.s.p[seat].bonus[c] for c in range(5)]

    def icons(self, int seat):
        return self.s.p[seat].icons

    def meets_gauntlet(self, int seat):
        return bool(_meets_gauntlet(&self.s.p[seat]))

    cdef _check_known(self):
        cdef MPlayer* p = &self.s.p[self.s.current]
        cdef int j
        if self.s.phase == MPH_MAIN:
            for j in range(p.n_res):
                if p.res[j] < 0:
                    raise HiddenInformationError(
                        f"seat {self.s.current} holds a card this view does not know: "
                        "its moves depend on it (resample first)")

    def legal_actions(self):
        cdef int n, i
        self._check_known()
        n = m_legal_actions(&self.s, _scratch)
        return [_scratch[i] for i in range(n)]

    def search_actions(self):
        cdef int n, i
        self._check_known()
        n = m_search_actions(&self.s, _scratch)
        return [_scratch[i] for i in range(n)]

    def apply_action(self, action):
        cdef int a, t, n, i
        cdef bint found = False
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action is an integer id, got {action!r}")
        if self.s.phase == MPH_OVER:
            raise IllegalActionError("the game is over")
        if not 0 <= action < MA_NUM:
            raise IllegalActionError(f"action id {action} is outside 0..{MA_NUM - 1}")
        a = action
        self._check_known()
        n = m_legal_actions(&self.s, _scratch)
        for i in range(n):
            if _scratch[i] == a:
                found = True
                break
        if not found:
            raise IllegalActionError(_spec.explain_illegal(self.to_position(), a))
        if self.s.observer >= 0 and self.s.phase == MPH_MAIN:
            t = -1
            if MA_RES_DECK <= a < MA_RETURN:
                t = a - MA_RES_DECK
            elif MA_RES_BOARD <= a < MA_RES_DECK:
                t = (a - MA_RES_BOARD) >> 2
                if self.s.deck_len[t] == 0:
                    t = -1
            elif a >= MA_BUY and (a - MA_BUY) // M_NPAY < 12:
                t = ((a - MA_BUY) // M_NPAY) >> 2
                if self.s.deck_len[t] == 0:
                    t = -1
            if t >= 0:
                raise HiddenInformationError(
                    f"{self.action_to_string(a)}: draws from the level-{t + 1} deck, whose order "
                    "this view does not know (resample first)")
        m_apply(&self.s, a)

    def clone(self):
        cdef CoreState c = CoreState.__new__(CoreState)
        memcpy(&c.s, &self.s, sizeof(MState))
        return c

    def returns(self):
        cdef double out[M_MAX_PLAYERS]
        m_returns(&self.s, out)
        return [out[i] for i in range(self.s.n_players)]

    def evaluate(self):
        """The search's heuristic (MARVEL_DEF.evaluate): per seat, a win probability; the
        returns once the game is over."""
        cdef double out[M_MAX_PLAYERS]
        m_evaluate(&self.s, out)
        return [out[i] for i in range(self.s.n_players)]

    def features(self):
        """The learned evaluation's input for the seat to act: NUM_FEATURES float32 (bytes)."""
        return _features_bytes(&self.s)

    def view(self, int seat):
        if not 0 <= seat < self.s.n_players:
            raise PositionError("seat", f"seat {seat} is out of range 0..{self.s.n_players - 1}")
        return CoreState.from_position(_spec.view_position(self.to_position(), seat))

    def resample(self, int seat, rng):
        """A full state: what `seat` cannot see is redrawn (rng: a random.Random)."""
        cdef Rng r
        cdef CoreState c
        cdef int j
        if not 0 <= seat < self.s.n_players:
            raise PositionError("seat", f"seat {seat} is out of range 0..{self.s.n_players - 1}")
        if self.s.observer >= 0 and seat != self.s.observer:
            for j in range(self.s.p[seat].n_res):
                if self.s.p[seat].res[j] < 0:
                    raise HiddenInformationError(
                        f"this is seat {self.s.observer}'s view: it does not know the cards "
                        f"seat {seat} sees, so it cannot be resampled for seat {seat}")
        c = self.clone()
        rng_seed(&r, rng.getrandbits(64))
        m_resample(&c.s, seat, &r)
        return c

    def action_to_string(self, action):
        return _spec.action_to_string(self.to_position(), action)

    def string_to_action(self, text):
        return _spec.string_to_action(self.to_position(), text)

    def random_playout(self, unsigned long long seed, int max_actions=100000):
        """Plays random search actions in place (the benchmark's inner loop); returns the count."""
        cdef Rng r
        cdef int n
        rng_seed(&r, seed)
        with nogil:
            n = m_random_playout(&self.s, &r, max_actions)
        return n


def random_playouts(CoreState start, int games, unsigned long long seed):
    """Plays `games` random games from `start` (copies), GIL released; returns the action count."""
    cdef MState s
    cdef Rng r
    cdef long long total = 0
    cdef int g
    rng_seed(&r, seed)
    with nogil:
        for g in range(games):
            memcpy(&s, &start.s, sizeof(MState))
            total += m_random_playout(&s, &r, 100000)
    return total
