# The Splendor base-game core: the whole state in one fixed-size struct (BState, base.pxd),
# move generation and apply as noexcept nogil C functions, and CoreState, the Python face
# that satisfies the State protocol of splendor_ai/games/state.py.
#
# The rules are those of splendor_ai/games/base/reference.py (the executable specification);
# the parity test (tests/test_base_parity.py) compares the two after every action.
from libc.stdint cimport int8_t, int32_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from rng cimport Rng, rng_seed, rng_below, rng_uniform
from base cimport *
from game cimport GameDef

from splendor_ai.games.base import spec as _spec
from splendor_ai.games.errors import HiddenInformationError, IllegalActionError, PositionError

# ---------------------------------------------------------------------------- tables
cdef int8_t C_LEVEL[B_NCARDS]
cdef int8_t C_COLOR[B_NCARDS]
cdef int8_t C_POINTS[B_NCARDS]
cdef int8_t C_COST[B_NCARDS][5]
cdef int8_t N_REQ[B_NNOBLES][5]
cdef int8_t PAY[B_NPAY][5]
cdef int8_t PAY_SUM[B_NPAY]
cdef int8_t TAKE3_SET[10][3]
cdef int8_t TAKE2D_INDEX[5][5]
cdef int8_t TAKE2D_SET[10][2]
cdef int8_t GEMS_FOR[5]


cdef void _init_tables():
    cdef int i, c
    for card in _spec.CARDS:
        i = card.id
        C_LEVEL[i] = card.level
        C_COLOR[i] = card.color
        C_POINTS[i] = card.points
        for c in range(5):
            C_COST[i][c] = card.cost[c]
    for noble in _spec.NOBLES:
        for c in range(5):
            N_REQ[noble.id][c] = noble.requires[c]
    for i, v in enumerate(_spec.PAY_VARIANTS):
        PAY_SUM[i] = sum(v)
        for c in range(5):
            PAY[i][c] = v[c]
    for i, t in enumerate(_spec.TAKE3_SETS):
        for c in range(3):
            TAKE3_SET[i][c] = t[c]
    for i, t in enumerate(_spec.TAKE2_DIFF_SETS):
        TAKE2D_INDEX[t[0]][t[1]] = i
        TAKE2D_SET[i][0] = t[0]
        TAKE2D_SET[i][1] = t[1]
        TAKE2D_INDEX[t[1]][t[0]] = i
    for n, g in _spec.GEMS_PER_COLOR.items():
        GEMS_FOR[n] = g


_init_tables()

# ---------------------------------------------------------------------------- helpers
cdef inline int _total(const BPlayer* p) noexcept nogil:
    return p.tokens[0] + p.tokens[1] + p.tokens[2] + p.tokens[3] + p.tokens[4] + p.tokens[5]


cdef inline void _power(const BPlayer* p, int* pw) noexcept nogil:
    """What the player can pay per colour without gold: bonuses plus gems."""
    cdef int c
    for c in range(5):
        pw[c] = p.bonus[c] + p.tokens[c]


cdef inline int _missing(int cid, const int* pw, int* d) noexcept nogil:
    """Gems still missing per colour for card cid (into d); returns their sum (the gold needed)."""
    cdef int c, x, m = 0
    for c in range(5):
        x = C_COST[cid][c] - pw[c]
        if x < 0:
            x = 0
        d[c] = x
        m += x
    return m


cdef inline int _target_card(const BState* s, int target) noexcept nogil:
    """Card id at a buy/reserve target (board slot 0..11, own reserve 12..14), or -1."""
    cdef const BPlayer* p
    if target < 12:
        return s.board[target >> 2][target & 3]
    p = &s.p[s.current]
    if target - 12 < p.n_res:
        return p.res[target - 12]
    return -1


cdef inline bint _noble_qualifies(const BPlayer* p, int nid) noexcept nogil:
    cdef int c
    for c in range(5):
        if p.bonus[c] < N_REQ[nid][c]:
            return False
    return True


cdef int _main_actions(const BState* s, int* out, bint all_payments) noexcept nogil:
    cdef const BPlayer* p = &s.p[s.current]
    cdef int n = 0, c, i, k = 0, lv, t, cid, short, v, gems
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
                out[n] = A_TAKE3 + i
                n += 1
    else:
        if k == 2:
            out[n] = A_TAKE2D + TAKE2D_INDEX[a0][a1]
            n += 1
        for c in range(5):
            if s.supply[c] > 0:
                out[n] = A_TAKE1 + c
                n += 1
    # 2. two of one colour from a pile of 4 or more
    for c in range(5):
        if s.supply[c] >= 4:
            out[n] = A_TAKE2S + c
            n += 1
    # 3. reserve
    if p.n_res < B_MAX_RES:
        for t in range(12):
            if s.board[t >> 2][t & 3] >= 0:
                out[n] = A_RES_BOARD + t
                n += 1
        for lv in range(3):
            if s.deck_len[lv] > 0:
                out[n] = A_RES_DECK + lv
                n += 1
    # 4. buy
    _power(p, pw)
    for t in range(15):
        cid = _target_card(s, t)
        if cid < 0:
            continue
        short = _missing(cid, pw, d)
        if short > p.tokens[B_GOLD]:
            continue
        out[n] = A_BUY + t * B_NPAY
        n += 1
        if all_payments and p.tokens[B_GOLD] > short:
            for v in range(1, B_NPAY):
                if PAY_SUM[v] > p.tokens[B_GOLD] - short:
                    continue
                ok = True
                for c in range(5):
                    gems = C_COST[cid][c] - p.bonus[c]
                    if gems > p.tokens[c]:
                        gems = p.tokens[c]
                    if gems < 0:
                        gems = 0
                    if PAY[v][c] > gems:
                        ok = False
                        break
                if ok:
                    out[n] = A_BUY + t * B_NPAY + v
                    n += 1
    if n == 0:
        out[0] = A_PASS
        n = 1
    return n


cdef int _phase_actions(const BState* s, int* out, bint all_payments) noexcept nogil:
    cdef const BPlayer* p
    cdef int n = 0, k, i, j, tmp
    if s.phase == PH_MAIN:
        return _main_actions(s, out, all_payments)
    p = &s.p[s.current]
    if s.phase == PH_RETURN:
        for k in range(6):
            if p.tokens[k] > 0:
                out[n] = A_RETURN + k
                n += 1
        return n
    if s.phase == PH_NOBLE:
        for i in range(s.n_nobles):
            if _noble_qualifies(p, s.nobles[i]):
                out[n] = A_NOBLE + s.nobles[i]
                n += 1
        for i in range(1, n):  # sort by id (at most 5)
            j = i
            while j > 0 and out[j - 1] > out[j]:
                tmp = out[j]
                out[j] = out[j - 1]
                out[j - 1] = tmp
                j -= 1
        return n
    return 0


cdef int b_search_actions(const void* s, int* out) noexcept nogil:
    return _phase_actions(<const BState*>s, out, False)


cdef int b_legal_actions(const BState* s, int* out) noexcept nogil:
    return _phase_actions(s, out, True)


cdef int b_n_players(const void* s) noexcept nogil:
    return (<const BState*>s).n_players


cdef int b_current_player(const void* s) noexcept nogil:
    cdef const BState* st = <const BState*>s
    return -1 if st.phase == PH_OVER else st.current


# ---------------------------------------------------------------------------- apply
cdef inline void _refill(BState* s, int lv, int slot) noexcept nogil:
    """A face-up card left its slot: replace it from the deck of its level, if any."""
    if s.deck_len[lv] > 0:
        s.deck_len[lv] -= 1
        s.board[lv][slot] = s.deck[lv][s.deck_len[lv]]
    else:
        s.board[lv][slot] = -1


cdef inline void _reserve(BState* s, BPlayer* p, int cid, int lv, bint blind) noexcept nogil:
    p.res[p.n_res] = cid
    p.res_level[p.n_res] = lv + 1
    p.res_blind[p.n_res] = blind
    p.n_res += 1
    if s.supply[B_GOLD] > 0:
        s.supply[B_GOLD] -= 1
        p.tokens[B_GOLD] += 1


cdef void _buy(BState* s, BPlayer* p, int target, int variant) noexcept nogil:
    cdef int cid = _target_card(s, target)
    cdef int c, need, gems, gold = 0, i
    for c in range(5):
        need = C_COST[cid][c] - p.bonus[c]
        if need < 0:
            need = 0
        gems = need if need < p.tokens[c] else p.tokens[c]
        gems -= PAY[variant][c]
        gold += need - gems
        p.tokens[c] -= gems
        s.supply[c] += gems
    p.tokens[B_GOLD] -= gold
    s.supply[B_GOLD] += gold
    p.owned[cid >> 6] |= (<uint64_t>1) << (cid & 63)
    p.bonus[C_COLOR[cid]] += 1
    p.points += C_POINTS[cid]
    p.n_cards += 1
    if target < 12:
        _refill(s, target >> 2, target & 3)
    else:
        for i in range(target - 12, p.n_res - 1):
            p.res[i] = p.res[i + 1]
            p.res_level[i] = p.res_level[i + 1]
            p.res_blind[i] = p.res_blind[i + 1]
        p.n_res -= 1


cdef void _take_noble(BState* s, BPlayer* p, int nid) noexcept nogil:
    cdef int i, j = 0
    for i in range(s.n_nobles):
        if s.nobles[i] != nid:
            s.nobles[j] = s.nobles[i]
            j += 1
    s.n_nobles = j
    p.nobles |= <uint16_t>(1 << nid)
    p.points += 3


cdef void _finish_turn(BState* s, bint pass_without_noble) noexcept nogil:
    """End trigger, then the next seat (or the end of the game)."""
    cdef BPlayer* p = &s.p[s.current]
    if p.points >= 15:
        s.final_round = 1
    if pass_without_noble:
        s.passes += 1
    else:
        s.passes = 0
    s.turn += 1
    if (s.final_round and s.current == (s.start + s.n_players - 1) % s.n_players) or s.passes >= s.n_players:
        s.phase = PH_OVER
    else:
        s.current = (s.current + 1) % s.n_players
        s.phase = PH_MAIN


cdef void _noble_step(BState* s, bint was_pass) noexcept nogil:
    cdef BPlayer* p = &s.p[s.current]
    cdef int i, count = 0, found = -1
    for i in range(s.n_nobles):
        if _noble_qualifies(p, s.nobles[i]):
            count += 1
            found = s.nobles[i]
    if count == 0:
        _finish_turn(s, was_pass)
    elif count == 1:
        _take_noble(s, p, found)
        _finish_turn(s, False)
    else:
        s.phase = PH_NOBLE


cdef void b_apply(void* state, int a) noexcept nogil:
    cdef BState* s = <BState*>state
    cdef BPlayer* p = &s.p[s.current]
    cdef int c, t, lv
    if s.phase == PH_RETURN:
        c = a - A_RETURN
        p.tokens[c] -= 1
        s.supply[c] += 1
        if _total(p) <= 10:
            _noble_step(s, False)
        return
    if s.phase == PH_NOBLE:
        _take_noble(s, p, a - A_NOBLE)
        _finish_turn(s, False)
        return
    if a < A_TAKE2D:
        for c in range(3):
            s.supply[TAKE3_SET[a][c]] -= 1
            p.tokens[TAKE3_SET[a][c]] += 1
    elif a < A_TAKE1:
        for c in range(2):
            s.supply[TAKE2D_SET[a - A_TAKE2D][c]] -= 1
            p.tokens[TAKE2D_SET[a - A_TAKE2D][c]] += 1
    elif a < A_TAKE2S:
        c = a - A_TAKE1
        s.supply[c] -= 1
        p.tokens[c] += 1
    elif a < A_RES_BOARD:
        c = a - A_TAKE2S
        s.supply[c] -= 2
        p.tokens[c] += 2
    elif a < A_RES_DECK:
        t = a - A_RES_BOARD
        lv = t >> 2
        _reserve(s, p, s.board[lv][t & 3], lv, False)
        _refill(s, lv, t & 3)
    elif a < A_RETURN:
        lv = a - A_RES_DECK
        s.deck_len[lv] -= 1
        _reserve(s, p, s.deck[lv][s.deck_len[lv]], lv, True)
    elif a >= A_BUY:
        t = (a - A_BUY) // B_NPAY
        _buy(s, p, t, (a - A_BUY) - t * B_NPAY)
    # A_PASS: nothing to do.
    if _total(p) > 10:
        s.phase = PH_RETURN
    else:
        _noble_step(s, a == A_PASS)


cdef void b_returns(const void* state, double* out) noexcept nogil:
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
        if s.p[i].points == best and s.p[i].n_cards == fewest:
            winners += 1
    for i in range(s.n_players):
        if s.p[i].points == best and s.p[i].n_cards == fewest:
            out[i] = 1.0 / winners


cdef void b_resample(void* state, int seat, Rng* rng) noexcept nogil:
    cdef BState* s = <BState*>state
    cdef uint64_t seen[2]
    cdef int8_t pool[3][B_MAX_DECK + B_MAX_RES * B_MAX_PLAYERS]
    cdef int pool_len[3]
    cdef int i, j, lv, cid, r, tmp
    cdef BPlayer* p
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
    for cid in range(B_NCARDS):
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


cdef int b_random_playout(BState* s, Rng* rng, int max_actions) noexcept nogil:
    """Plays uniformly random search actions until the end (or max_actions); returns the count."""
    cdef int acts[B_MAX_SEARCH_ACTIONS]
    cdef int n, count = 0
    while s.phase != PH_OVER and count < max_actions:
        n = b_search_actions(s, acts)
        b_apply(s, acts[rng_below(rng, n)])
        count += 1
    return count


# ---------------------------------------------------------------------------- heuristics
# Used by the search (through BASE_DEF): a cheap evaluation at rollout cut-offs, the rollout
# policy (one action per call, drawn by weight) and the tree's priors. Their weights are documented in docs/search.md.
from libc.math cimport exp

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
    cdef const BState* s = <const BState*>state
    cdef double best = -1e9, total = 0.0
    cdef int i
    if s.phase == PH_OVER:
        b_returns(state, out)
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


cdef void _action_weights(const BState* s, const int* acts, int n, double* w) noexcept nogil:
    """A positive weight per action: buying first (more for points), then useful gems."""
    cdef const BPlayer* p = &s.p[s.current]
    cdef double need[5]
    cdef int i, a, c, t, cid, missing
    cdef int pw[5]
    cdef int d[5]
    cdef double share
    for c in range(5):
        need[c] = 0.0
    if s.phase == PH_MAIN:
        _power(p, pw)
        for t in range(15):
            cid = _target_card(s, t)
            if cid < 0:
                continue
            missing = _missing(cid, pw, d)
            if missing == 0 or missing > 6:
                continue
            share = (1.0 + C_POINTS[cid]) / missing
            for c in range(5):
                if d[c] > 0:
                    need[c] += share
    for i in range(n):
        a = acts[i]
        if s.phase == PH_RETURN:
            c = a - A_RETURN
            w[i] = 0.1 if c == B_GOLD else 0.2 + p.tokens[c] - (need[c] if c < 5 else 0)
            if w[i] < 0.05:
                w[i] = 0.05
        elif s.phase == PH_NOBLE or a == A_PASS:
            w[i] = 1.0
        elif a >= A_BUY:
            cid = _target_card(s, (a - A_BUY) // B_NPAY)
            w[i] = 6.0 + 4.0 * C_POINTS[cid]
        elif a < A_TAKE2D:
            w[i] = 0.5 + need[TAKE3_SET[a][0]] + need[TAKE3_SET[a][1]] + need[TAKE3_SET[a][2]]
        elif a < A_TAKE1:
            a -= A_TAKE2D
            w[i] = 0.4 + need[TAKE2D_SET[a][0]] + need[TAKE2D_SET[a][1]]
        elif a < A_TAKE2S:
            w[i] = 0.3 + need[a - A_TAKE1]
        elif a < A_RES_BOARD:
            w[i] = 0.3 + 1.5 * need[a - A_TAKE2S]
        elif a < A_RES_DECK:
            cid = s.board[(a - A_RES_BOARD) >> 2][(a - A_RES_BOARD) & 3]
            w[i] = 0.1 + 0.1 * C_POINTS[cid]
        else:
            w[i] = 0.05


cdef inline int _roulette(const int* acts, const double* w, int n, Rng* rng) noexcept nogil:
    cdef double total = 0.0, x
    cdef int i
    for i in range(n):
        total += w[i]
    x = rng_uniform(rng) * total
    for i in range(n):
        x -= w[i]
        if x < 0:
            return acts[i]
    return acts[n - 1]


cdef int b_rollout_action(const void* state, Rng* rng) noexcept nogil:
    """The rollout policy: one action drawn by the weights of _action_weights.

    In the main phase the moves and their weights are made in one pass over the 15 buy
    targets (the hot path of every rollout); the draw is the same as weighting the sorted
    search actions with _action_weights.
    """
    cdef const BState* s = <const BState*>state
    cdef const BPlayer* p = &s.p[s.current]
    cdef int acts[B_MAX_SEARCH_ACTIONS]
    cdef double w[B_MAX_SEARCH_ACTIONS]
    cdef int tcard[15]
    cdef int tmiss[15]
    cdef double need[5]
    cdef int pw[5]
    cdef int d[5]
    cdef int n = 0, c, i, t, cid, missing, k = 0, a0 = -1, a1 = -1, lv
    cdef double share
    if s.phase != PH_MAIN:
        n = _phase_actions(s, acts, False)
        _action_weights(s, acts, n, w)
        return _roulette(acts, w, n, rng)
    _power(p, pw)
    for c in range(5):
        need[c] = 0.0
    for t in range(15):
        cid = _target_card(s, t)
        tcard[t] = cid
        if cid < 0:
            continue
        missing = _missing(cid, pw, d)
        tmiss[t] = missing
        if missing == 0 or missing > 6:
            continue
        share = (1.0 + C_POINTS[cid]) / missing
        for c in range(5):
            if d[c] > 0:
                need[c] += share
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
                acts[n] = A_TAKE3 + i
                w[n] = 0.5 + need[TAKE3_SET[i][0]] + need[TAKE3_SET[i][1]] + need[TAKE3_SET[i][2]]
                n += 1
    else:
        if k == 2:
            acts[n] = A_TAKE2D + TAKE2D_INDEX[a0][a1]
            w[n] = 0.4 + need[a0] + need[a1]
            n += 1
        for c in range(5):
            if s.supply[c] > 0:
                acts[n] = A_TAKE1 + c
                w[n] = 0.3 + need[c]
                n += 1
    for c in range(5):
        if s.supply[c] >= 4:
            acts[n] = A_TAKE2S + c
            w[n] = 0.3 + 1.5 * need[c]
            n += 1
    if p.n_res < B_MAX_RES:
        for t in range(12):
            if tcard[t] >= 0:
                acts[n] = A_RES_BOARD + t
                w[n] = 0.1 + 0.1 * C_POINTS[tcard[t]]
                n += 1
        for lv in range(3):
            if s.deck_len[lv] > 0:
                acts[n] = A_RES_DECK + lv
                w[n] = 0.05
                n += 1
    for t in range(15):
        if tcard[t] >= 0 and tmiss[t] <= p.tokens[B_GOLD]:
            acts[n] = A_BUY + t * B_NPAY
            w[n] = 6.0 + 4.0 * C_POINTS[tcard[t]]
            n += 1
    if n == 0:
        acts[0] = A_PASS
        w[0] = 1.0
        n = 1
    return _roulette(acts, w, n, rng)


cdef void b_priors(const void* state, const int* acts, int n, float* out) noexcept nogil:
    cdef double w[B_MAX_SEARCH_ACTIONS]
    cdef double total = 0.0
    cdef int i
    _action_weights(<const BState*>state, acts, n, w)
    for i in range(n):
        total += w[i]
    for i in range(n):
        out[i] = <float>(w[i] / total)


include "base_features.pxi"

cdef GameDef BASE_DEF
BASE_DEF.name = "base"
BASE_DEF.state_size = sizeof(BState)
BASE_DEF.max_actions = B_MAX_SEARCH_ACTIONS
BASE_DEF.num_actions = A_NUM
BASE_DEF.max_players = B_MAX_PLAYERS
BASE_DEF.n_players = b_n_players
BASE_DEF.current_player = b_current_player
BASE_DEF.legal_actions = b_search_actions
BASE_DEF.apply = b_apply
BASE_DEF.returns = b_returns
BASE_DEF.resample = b_resample
BASE_DEF.evaluate = b_evaluate
BASE_DEF.rollout_action = b_rollout_action
BASE_DEF.priors = b_priors
BASE_DEF.num_features = B_NUM_FEATURES
BASE_DEF.policy_size = B_POLICY_SIZE
BASE_DEF.features = b_features
BASE_DEF.policy_index = b_policy_index


def game_def():
    """The core's GameDef (game.pxd) in a capsule, for the search."""
    return PyCapsule_New(&BASE_DEF, b"splendor_ai.GameDef", NULL)


# ---------------------------------------------------------------------------- Python face
_PHASE_NAMES = ("main", "return", "noble", "over")
cdef int[A_NUM] _scratch


def _from_position(pos):
    return CoreState.from_position(pos)


cdef class CoreState:
    """A base-game state in the Cython core (see splendor_ai/games/state.py for the API)."""

    cdef BState s

    game = _spec.GAME

    @property
    def players(self):
        return self.s.n_players

    @staticmethod
    def from_position(pos):
        """From a validated position dictionary (spec.validate_position / initial_position)."""
        cdef CoreState st = CoreState.__new__(CoreState)
        cdef BState* s = &st.s
        cdef BPlayer* p
        cdef int i, j, lv, cid
        memset(s, 0, sizeof(BState))
        memset(s.deck, -1, sizeof(s.deck))
        s.n_players = pos["players"]
        s.current = pos["current"]
        s.start = pos["start_seat"]
        s.phase = _PHASE_NAMES.index(pos["phase"])
        s.final_round = pos["final_round"]
        s.passes = pos["passes"]
        s.observer = -1 if pos["observer"] is None else pos["observer"]
        s.turn = pos["turn"]
        for i in range(6):
            s.supply[i] = pos["supply"][i]
        for lv in range(3):
            for j in range(4):
                s.board[lv][j] = pos["board"][lv][j]
            s.deck_len[lv] = pos["deck_sizes"][lv]
            if pos["decks"] is not None:
                for j, cid in enumerate(pos["decks"][lv]):
                    s.deck[lv][j] = cid
        for i in range(5):
            s.nobles[i] = -1
        s.n_nobles = len(pos["nobles"])
        for i, nid in enumerate(pos["nobles"]):
            s.nobles[i] = nid
        for i, seat in enumerate(pos["seats"]):
            p = &s.p[i]
            for j in range(6):
                p.tokens[j] = seat["tokens"][j]
            for cid in seat["cards"]:
                p.owned[cid >> 6] |= (<uint64_t>1) << (cid & 63)
                p.bonus[C_COLOR[cid]] += 1
                p.points += C_POINTS[cid]
                p.n_cards += 1
            for nid in seat["nobles"]:
                p.nobles |= <uint16_t>(1 << nid)
                p.points += 3
            p.n_res = len(seat["reserved"])
            for j, r in enumerate(seat["reserved"]):
                p.res[j] = -1 if r["card"] is None else r["card"]
                p.res_level[j] = r["level"]
                p.res_blind[j] = r["blind"]
        return st

    def to_position(self):
        """The canonical position dictionary (docs/positions.md)."""
        cdef BState* s = &self.s
        cdef BPlayer* p
        cdef int i, j, lv
        seats = []
        for i in range(s.n_players):
            p = &s.p[i]
            seats.append({
                "tokens": [p.tokens[j] for j in range(6)],
                "cards": [j for j in range(B_NCARDS) if (p.owned[j >> 6] >> (j & 63)) & 1],
                "reserved": [
                    {"card": None if p.res[j] < 0 else p.res[j], "level": p.res_level[j],
                     "blind": bool(p.res_blind[j])}
                    for j in range(p.n_res)
                ],
                "nobles": [j for j in range(B_NNOBLES) if (p.nobles >> j) & 1],
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
            "supply": [s.supply[j] for j in range(6)],
            "board": [[s.board[lv][j] for j in range(4)] for lv in range(3)],
            "decks": None if s.observer >= 0 else
                [[s.deck[lv][j] for j in range(s.deck_len[lv])] for lv in range(3)],
            "deck_sizes": [s.deck_len[lv] for lv in range(3)],
            "nobles": [s.nobles[j] for j in range(s.n_nobles)],
            "seats": seats,
            "observer": None if s.observer < 0 else s.observer,
        }

    def _state_bytes(self):
        """The raw state block, for the search (its GameDef reads it)."""
        return PyBytes_FromStringAndSize(<char*>&self.s, sizeof(BState))

    @staticmethod
    def _from_state_bytes(bytes data):
        cdef CoreState st
        if len(data) != sizeof(BState):
            raise ValueError("state block of the wrong size")
        st = CoreState.__new__(CoreState)
        memcpy(&st.s, <const char*>data, sizeof(BState))
        return st

    def __reduce__(self):
        return (_from_position, (self.to_position(),))

    def __repr__(self):
        return f"<CoreState base {self.s.n_players}p turn {self.s.turn} {_PHASE_NAMES[self.s.phase]}>"

    def __str__(self):
        return _spec.render_position(self.to_position())

    def current_player(self):
        return b_current_player(&self.s)

    def phase(self):
        return _PHASE_NAMES[self.s.phase]

    def is_terminal(self):
        return self.s.phase == PH_OVER

    def points(self, int seat):
        return self.s.p[seat].points

    def bonuses(self, int seat):
        return [self.s.p[seat].bonus[c] for c in range(5)]

    cdef _check_known(self):
        cdef BPlayer* p = &self.s.p[self.s.current]
        cdef int j
        if self.s.phase == PH_MAIN:
            for j in range(p.n_res):
                if p.res[j] < 0:
                    raise HiddenInformationError(
                        f"seat {self.s.current} holds a card this view does not know: "
                        "its moves depend on it (resample first)")

    def legal_actions(self):
        cdef int n, i
        self._check_known()
        n = b_legal_actions(&self.s, _scratch)
        return [_scratch[i] for i in range(n)]

    def search_actions(self):
        cdef int n, i
        self._check_known()
        n = b_search_actions(&self.s, _scratch)
        return [_scratch[i] for i in range(n)]

    def apply_action(self, action):
        cdef int a, t, n, i
        cdef bint found = False
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action is an integer id, got {action!r}")
        if self.s.phase == PH_OVER:
            raise IllegalActionError("the game is over")
        if not 0 <= action < A_NUM:
            raise IllegalActionError(f"action id {action} is outside 0..{A_NUM - 1}")
        a = action
        self._check_known()
        n = b_legal_actions(&self.s, _scratch)
        for i in range(n):
            if _scratch[i] == a:
                found = True
                break
        if not found:
            raise IllegalActionError(_spec.explain_illegal(self.to_position(), a))
        if self.s.observer >= 0 and self.s.phase == PH_MAIN:
            t = -1
            if A_RES_DECK <= a < A_RETURN:
                t = a - A_RES_DECK
            elif A_RES_BOARD <= a < A_RES_DECK:
                t = (a - A_RES_BOARD) >> 2
                if self.s.deck_len[t] == 0:
                    t = -1
            elif a >= A_BUY and (a - A_BUY) // B_NPAY < 12:
                t = ((a - A_BUY) // B_NPAY) >> 2
                if self.s.deck_len[t] == 0:
                    t = -1
            if t >= 0:
                raise HiddenInformationError(
                    f"{self.action_to_string(a)}: draws from the level-{t + 1} deck, whose order "
                    "this view does not know (resample first)")
        b_apply(&self.s, a)

    def clone(self):
        cdef CoreState c = CoreState.__new__(CoreState)
        memcpy(&c.s, &self.s, sizeof(BState))
        return c

    def features(self):
        """The learned evaluation's input for the seat to act: NUM_FEATURES float32 values,
        native order (splendor_ai/games/base/features.py defines them)."""
        cdef float out[B_NUM_FEATURES]
        if self.s.phase == PH_OVER:
            raise ValueError("the game is over: no seat is to act, so there are no features")
        b_features(&self.s, out)
        return PyBytes_FromStringAndSize(<char*>out, sizeof(out))

    def returns(self):
        cdef double out[B_MAX_PLAYERS]
        b_returns(&self.s, out)
        return [out[i] for i in range(self.s.n_players)]

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
        b_resample(&c.s, seat, &r)
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
            n = b_random_playout(&self.s, &r, max_actions)
        return n


def random_playouts(CoreState start, int games, unsigned long long seed):
    """Plays `games` random games from `start` (copies), GIL released; returns the action count."""
    cdef BState s
    cdef Rng r
    cdef long long total = 0
    cdef int g
    rng_seed(&r, seed)
    with nogil:
        for g in range(games):
            memcpy(&s, &start.s, sizeof(BState))
            total += b_random_playout(&s, &r, 100000)
    return total
