# The card-game layer of the cores, written once as inline noexcept nogil helpers:
# - for all three games (Duel takes these): decks, reserves and their hidden information
#   (resampling, reading and writing them in a position);
# - for the base game and Marvel: taking, reserving, buying and paying, token returns, the
#   pieces that come at the end of a turn, and the turn itself: each phase's actions, apply,
#   the end of a turn (the game's own steps passed in).
# ext/cardids.pxd holds the ids and sizes the two games share, ext/cardsearch.pxd the
# layer's search heuristics; splendor_ai/games/cards/ is the same layer in Python.
#
# The helpers work on any game's state block: `AnyState` / `AnyPlayer` are fused types over
# the three games' structs, `CardState` / `CardPlayer` over the base game's and Marvel's
# (base.pxd, marvel.pxd, duel.pxd), so each core compiles its own copy with its own field
# offsets and constants (as a C++ template would): no copy of the state, the same machine
# code as code written in the core. What differs between the games comes in as arguments
# that are constants at every call: the wild token kind, the game's PASS and BUY ids, the
# game's card tables (`CardTables`), and the game's own rules as pointers to its functions,
# which the C compiler calls directly (or inlines) once the helper is inlined into the core.
from libc.stdint cimport int8_t, uint64_t
from libc.string cimport memset
from rng cimport Rng, rng_below
from base cimport BState, BPlayer
from marvel cimport MState, MPlayer
from duel cimport DState, DPlayer
from cardids cimport *

ctypedef fused AnyState:
    BState
    MState
    DState

ctypedef fused AnyPlayer:
    BPlayer
    MPlayer
    DPlayer

ctypedef fused CardState:
    BState
    MState

ctypedef fused CardPlayer:
    BPlayer
    MPlayer

ctypedef struct CardTurn:
    # The first fields of both games' state blocks, in this order (base.pxd, marvel.pxd;
    # cg_check_layout checks it when a core loads): enough to say whose turn it is.
    int8_t n_players
    int8_t current
    int8_t start
    int8_t phase               # CPH_*; CPH_OVER once the game is over


ctypedef struct CardTables:
    int8_t level[CG_NCARDS]
    int8_t color[CG_NCARDS]
    int8_t points[CG_NCARDS]
    int8_t cost[CG_NCARDS][5]
    int8_t pay[CG_NPAY][5]       # payment variants: wild tokens instead of each colour
    int8_t pay_sum[CG_NPAY]
    int8_t take3[10][3]
    int8_t take2d_index[5][5]
    int8_t take2d_set[10][2]


cdef inline void cg_init_tables(CardTables* T, spec):
    """The tables from a game's spec module (its CARDS and the shared layout)."""
    cdef int i, c
    for card in spec.CARDS:
        i = card.id
        T.level[i] = card.level
        T.color[i] = card.color
        T.points[i] = card.points
        for c in range(5):
            T.cost[i][c] = card.cost[c]
    for i, v in enumerate(spec.PAY_VARIANTS):
        T.pay_sum[i] = sum(v)
        for c in range(5):
            T.pay[i][c] = v[c]
    for i, t in enumerate(spec.TAKE3_SETS):
        for c in range(3):
            T.take3[i][c] = t[c]
    for i, t in enumerate(spec.TAKE2_DIFF_SETS):
        T.take2d_index[t[0]][t[1]] = i
        T.take2d_index[t[1]][t[0]] = i
        T.take2d_set[i][0] = t[0]
        T.take2d_set[i][1] = t[1]


cdef inline void cg_check_layout(CardState* s):
    """ImportError unless the state block starts as CardTurn says (cg_n_players and
    cg_current_player read it through that header)."""
    cdef char* base = <char*>s
    if (<char*>&s.n_players - base, <char*>&s.current - base, <char*>&s.start - base,
            <char*>&s.phase - base) != (0, 1, 2, 3):
        raise ImportError("ext/cards.pxd: a state block does not start with CardTurn's fields")


cdef inline int cg_n_players(const void* s) noexcept nogil:
    """GameDef.n_players of either game (the state block starts with CardTurn)."""
    return (<const CardTurn*>s).n_players


cdef inline int cg_current_player(const void* s) noexcept nogil:
    """GameDef.current_player of either game: the seat to act, or -1 once the game is over."""
    return -1 if (<const CardTurn*>s).phase == CPH_OVER else (<const CardTurn*>s).current


# ---------------------------------------------------------------------------- a seat's cards
cdef inline void cg_power(const CardPlayer* p, int* pw) noexcept nogil:
    """What the player can pay per colour without the wild kind: bonuses plus tokens."""
    cdef int c
    for c in range(5):
        pw[c] = p.bonus[c] + p.tokens[c]


cdef inline int cg_missing(const CardTables* T, int cid, const int* pw, int* d) noexcept nogil:
    """Tokens still missing per colour for card cid (into d); returns their sum (the wild
    tokens needed)."""
    cdef int c, x, m = 0
    for c in range(5):
        x = T.cost[cid][c] - pw[c]
        if x < 0:
            x = 0
        d[c] = x
        m += x
    return m


cdef inline int cg_target_card(const CardState* s, int target) noexcept nogil:
    """Card id at a buy/reserve target (board slot 0..11, own reserve 12..14), or -1."""
    if target < 12:
        return s.board[target >> 2][target & 3]
    if target - 12 < s.p[s.current].n_res:
        return s.p[s.current].res[target - 12]
    return -1


cdef inline bint cg_meets(const CardPlayer* p, const int8_t* requires) noexcept nogil:
    """The seat's bonuses meet a requirement per colour (a noble's, a location's)."""
    cdef int c
    for c in range(5):
        if p.bonus[c] < requires[c]:
            return False
    return True


cdef inline bint cg_mover_knows_reserve(const CardState* s) noexcept nogil:
    """Whether the seat to act knows all its reserved cards (a view of another seat may not)."""
    cdef int j
    for j in range(s.p[s.current].n_res):
        if s.p[s.current].res[j] < 0:
            return False
    return True


# ---------------------------------------------------------------------------- move generation
cdef inline int cg_take_actions(const CardState* s, const CardTables* T, int* out, const double* need,
                                 double* w) noexcept nogil:
    """The take actions, sorted: three different colours (fewer only when fewer than 3
    colours are left), then two of one colour from a pile of 4 or more. With `w` (else
    NULL), their rollout weights too: a base weight plus how much the cards within reach
    want each colour taken (`need`)."""
    cdef int n = 0, c, i, k = 0, a0 = -1, a1 = -1
    for c in range(5):
        if s.supply[c] > 0:
            k += 1
            if a0 < 0:
                a0 = c
            elif a1 < 0:
                a1 = c
    if k >= 3:
        for i in range(10):
            if s.supply[T.take3[i][0]] > 0 and s.supply[T.take3[i][1]] > 0 and s.supply[T.take3[i][2]] > 0:
                if w != NULL:
                    w[n] = 0.5 + need[T.take3[i][0]] + need[T.take3[i][1]] + need[T.take3[i][2]]
                out[n] = CA_TAKE3 + i
                n += 1
    else:
        if k == 2:
            if w != NULL:
                w[n] = 0.4 + need[a0] + need[a1]
            out[n] = CA_TAKE2D + T.take2d_index[a0][a1]
            n += 1
        for c in range(5):
            if s.supply[c] > 0:
                if w != NULL:
                    w[n] = 0.3 + need[c]
                out[n] = CA_TAKE1 + c
                n += 1
    for c in range(5):
        if s.supply[c] >= 4:
            if w != NULL:
                w[n] = 0.3 + 1.5 * need[c]
            out[n] = CA_TAKE2S + c
            n += 1
    return n


cdef inline int cg_reserve_actions(const int8_t* face_up, int n_face_up, const int8_t* deck_len,
                                   int first_face_up, int first_deck, int* out, int n) noexcept nogil:
    """Appends the reserve actions to out[0..n): each face-up card (its place's id after
    ``first_face_up``), then each deck that is not empty (a blind reserve, from
    ``first_deck``); returns the new count. Any game with face-up cards over three decks."""
    cdef int t
    for t in range(n_face_up):
        if face_up[t] >= 0:
            out[n] = first_face_up + t
            n += 1
    for t in range(3):
        if deck_len[t] > 0:
            out[n] = first_deck + t
            n += 1
    return n


cdef inline int cg_main_actions(const CardState* s, const CardPlayer* p, const CardTables* T, int* out,
                                bint all_payments, int wild, int a_pass, int a_buy) noexcept nogil:
    """The main phase's actions for the seat to act `p`, sorted: take, reserve, buy (every
    payment variant, or only the wild tokens for the shortfall), or PASS when there is
    nothing else."""
    cdef int n, c, lv, t, cid, short, v, own
    cdef int pw[5]
    cdef int d[5]
    cdef bint ok
    n = cg_take_actions(s, T, out, NULL, NULL)
    if p.n_res < CG_MAX_RES:
        n = cg_reserve_actions(&s.board[0][0], 12, s.deck_len, CA_RES_BOARD, CA_RES_DECK, out, n)
    cg_power(p, pw)
    for t in range(15):
        cid = cg_target_card(s, t)
        if cid < 0:
            continue
        short = cg_missing(T, cid, pw, d)
        if short > p.tokens[wild]:
            continue
        out[n] = a_buy + t * CG_NPAY
        n += 1
        if all_payments and p.tokens[wild] > short:
            for v in range(1, CG_NPAY):
                if T.pay_sum[v] > p.tokens[wild] - short:
                    continue
                ok = True
                for c in range(5):
                    own = T.cost[cid][c] - p.bonus[c]
                    if own > p.tokens[c]:
                        own = p.tokens[c]
                    if own < 0:
                        own = 0
                    if T.pay[v][c] > own:
                        ok = False
                        break
                if ok:
                    out[n] = a_buy + t * CG_NPAY + v
                    n += 1
    if n == 0:
        out[0] = a_pass
        n = 1
    return n


cdef inline int cg_piece_actions(const CardPlayer* p, const int8_t* pieces, int n_pieces,
                                 const int8_t (*requires)[5], int first, int* out) noexcept nogil:
    """The game's own end-of-turn choice: one action per qualifying piece, sorted by id."""
    cdef int n = 0, i, j, tmp
    for i in range(n_pieces):
        if cg_meets(p, requires[pieces[i]]):
            out[n] = first + pieces[i]
            n += 1
    for i in range(1, n):  # insertion sort (at most 5)
        j = i
        while j > 0 and out[j - 1] > out[j]:
            tmp = out[j]
            out[j] = out[j - 1]
            out[j - 1] = tmp
            j -= 1
    return n


# ---------------------------------------------------------------------------- apply
cdef inline void cg_refill(CardState* s, int lv, int slot) noexcept nogil:
    """A face-up card left its slot: replace it from the deck of its level, if any."""
    if s.deck_len[lv] > 0:
        s.deck_len[lv] -= 1
        s.board[lv][slot] = s.deck[lv][s.deck_len[lv]]
    else:
        s.board[lv][slot] = -1


cdef inline void cg_reserve(CardState* s, CardPlayer* p, int cid, int lv, bint blind, int wild) noexcept nogil:
    p.res[p.n_res] = cid
    p.res_level[p.n_res] = lv + 1
    p.res_blind[p.n_res] = blind
    p.n_res += 1
    if s.supply[wild] > 0:
        s.supply[wild] -= 1
        p.tokens[wild] += 1


cdef inline bint cg_apply_take_or_reserve(CardState* s, CardPlayer* p, const CardTables* T, int a,
                                          int wild) noexcept nogil:
    """Plays a take or reserve action (ids below CA_RETURN); False for any other action."""
    cdef int c, t, lv
    if a < CA_TAKE2D:
        for c in range(3):
            s.supply[T.take3[a][c]] -= 1
            p.tokens[T.take3[a][c]] += 1
    elif a < CA_TAKE1:
        for c in range(2):
            s.supply[T.take2d_set[a - CA_TAKE2D][c]] -= 1
            p.tokens[T.take2d_set[a - CA_TAKE2D][c]] += 1
    elif a < CA_TAKE2S:
        c = a - CA_TAKE1
        s.supply[c] -= 1
        p.tokens[c] += 1
    elif a < CA_RES_BOARD:
        c = a - CA_TAKE2S
        s.supply[c] -= 2
        p.tokens[c] += 2
    elif a < CA_RES_DECK:
        t = a - CA_RES_BOARD
        lv = t >> 2
        cg_reserve(s, p, s.board[lv][t & 3], lv, False, wild)
        cg_refill(s, lv, t & 3)
    elif a < CA_RETURN:
        lv = a - CA_RES_DECK
        s.deck_len[lv] -= 1
        cg_reserve(s, p, s.deck[lv][s.deck_len[lv]], lv, True, wild)
    else:
        return False
    return True


cdef inline void cg_pay(CardState* s, CardPlayer* p, const CardTables* T, int cid, int variant,
                        int wild) noexcept nogil:
    """Pays for card cid with payment variant `variant`: tokens of each colour first, wild
    ones for the shortfall and for the variant's replacements; all back to the supply."""
    cdef int c, need, own, paid_wild = 0
    for c in range(5):
        need = T.cost[cid][c] - p.bonus[c]
        if need < 0:
            need = 0
        own = need if need < p.tokens[c] else p.tokens[c]
        own -= T.pay[variant][c]
        paid_wild += need - own
        p.tokens[c] -= own
        s.supply[c] += own
    p.tokens[wild] -= paid_wild
    s.supply[wild] += paid_wild


cdef inline void cg_own_card(CardPlayer* p, const CardTables* T, int cid) noexcept nogil:
    """Card cid is in the seat's tableau: its bonus, its points."""
    p.owned[cid >> 6] |= (<uint64_t>1) << (cid & 63)
    p.bonus[T.color[cid]] += 1
    p.points += T.points[cid]
    p.n_cards += 1


cdef inline void cg_gain_card(CardState* s, CardPlayer* p, const CardTables* T, int target, int cid) noexcept nogil:
    """Card cid, bought from `target`, goes to the seat's tableau; its place is refilled."""
    cdef int i
    cg_own_card(p, T, cid)
    if target < 12:
        cg_refill(s, target >> 2, target & 3)
    else:
        for i in range(target - 12, p.n_res - 1):
            p.res[i] = p.res[i + 1]
            p.res_level[i] = p.res_level[i + 1]
            p.res_blind[i] = p.res_blind[i + 1]
        p.n_res -= 1


cdef inline void cg_return_token(CardState* s, CardPlayer* p, int kind) noexcept nogil:
    p.tokens[kind] -= 1
    s.supply[kind] += 1


cdef inline int cg_remove_piece(int8_t* pieces, int n, int piece) noexcept nogil:
    """Removes `piece` from a row of pieces in play (the others keep their order); the new count."""
    cdef int i, j = 0
    for i in range(n):
        if pieces[i] != piece:
            pieces[j] = pieces[i]
            j += 1
    return j


cdef inline int cg_qualifying(const CardPlayer* p, const int8_t* pieces, int n,
                              const int8_t (*requires)[5], int* found) noexcept nogil:
    """How many pieces in play the seat's bonuses meet; `found` is the last of them."""
    cdef int i, count = 0
    for i in range(n):
        if cg_meets(p, requires[pieces[i]]):
            count += 1
            found[0] = pieces[i]
    return count


# ---------------------------------------------------------------------------- a turn
# The turn of both games, in the order of splendor_ai/games/cards/reference.py
# (apply_action, _end_of_turn, _finish_turn); the game's own steps come in as its functions:
#   buy(s, p, target, variant)   pays for and gains the card at a buy target
#   take_piece(s, p, piece)      a noble / a location comes to the seat
#   before_pieces(s)             the game's own step before its pieces (Marvel: the Avengers
#                                tile); returns whether it changed anything; NULL: none
#   end_trigger(s)               sets final_round when the seat to act triggers the end
#   round_end(s)                 after a turn: whether the game ends (the final round over)
cdef inline int cg_total(const CardPlayer* p, int kinds) noexcept nogil:
    """The seat's tokens of every kind (at most 10 once its turn is over)."""
    cdef int k, n = 0
    for k in range(kinds):
        n += p.tokens[k]
    return n


cdef inline bint cg_last_seat(const CardState* s) noexcept nogil:
    """Whether the seat to act plays the last turn of a round (the one before the start seat)."""
    return s.current == (s.start + s.n_players - 1) % s.n_players


cdef inline int cg_phase_actions(const CardState* s, const CardPlayer* p, const CardTables* T, int* out,
                                 bint all_payments, int kinds, int kept, int wild, int a_pass, int a_buy,
                                 const int8_t* pieces, int n_pieces, const int8_t (*requires)[5],
                                 int first_piece) noexcept nogil:
    """The actions of the seat to act `p`, sorted, in any phase: the main phase's
    (cg_main_actions), a token to return (a kind it holds, but never `kept`; -1: none kept),
    a piece it qualifies for (cg_piece_actions: the game's `pieces` in play, their
    `requires`, its first piece action id); none once the game is over."""
    cdef int n = 0, k
    if s.phase == CPH_MAIN:
        return cg_main_actions(s, p, T, out, all_payments, wild, a_pass, a_buy)
    if s.phase == CPH_RETURN:
        for k in range(kinds):
            if k != kept and p.tokens[k] > 0:
                out[n] = CA_RETURN + k
                n += 1
        return n
    if s.phase == CPH_PIECE:
        return cg_piece_actions(p, pieces, n_pieces, requires, first_piece, out)
    return 0


cdef inline void cg_finish_turn(CardState* s, bint dead_turn, void (*end_trigger)(CardState* s) noexcept nogil,
                                bint (*round_end)(CardState* s) noexcept nogil) noexcept nogil:
    """The end trigger, then the turn is over: counts a dead turn (a pass that changed
    nothing; or clears the count) and the turn; the game is over at the round's end or when
    every seat in a row had a dead turn, else the next seat plays."""
    end_trigger(s)
    if dead_turn:
        s.passes += 1
    else:
        s.passes = 0
    s.turn += 1
    if round_end(s) or s.passes >= s.n_players:
        s.phase = CPH_OVER
    else:
        s.current = (s.current + 1) % s.n_players
        s.phase = CPH_MAIN


cdef inline void cg_end_of_turn(CardState* s, CardPlayer* p, int kinds, bint passed, const int8_t* pieces,
                                int n_pieces, const int8_t (*requires)[5],
                                void (*take_piece)(CardState* s, CardPlayer* p, int piece) noexcept nogil,
                                bint (*before_pieces)(CardState* s) noexcept nogil,
                                void (*finish_turn)(CardState* s, bint dead_turn) noexcept nogil) noexcept nogil:
    """The end of the seat's turn, in order: the token limit (above 10: the seat returns
    tokens first), the game's own step, its pieces (one qualifying piece comes at once; with
    several the seat chooses, CPH_PIECE), then finish_turn (a dead turn when the seat passed
    and nothing came to it). `passed`: the turn's main action was PASS."""
    cdef int found = -1, count
    cdef bint changed = False
    if cg_total(p, kinds) > 10:
        s.phase = CPH_RETURN
        return
    if before_pieces != NULL:
        changed = before_pieces(s)
    count = cg_qualifying(p, pieces, n_pieces, requires, &found)
    if count >= 2:
        s.phase = CPH_PIECE
        return
    if count == 1:
        take_piece(s, p, found)
    finish_turn(s, passed and not changed and count == 0)


cdef inline void cg_apply(CardState* s, CardPlayer* p, const CardTables* T, int a, int kinds, int wild, int a_pass,
                          int a_buy, const int8_t* pieces, int n_pieces, const int8_t (*requires)[5], int first_piece,
                          void (*buy)(CardState* s, CardPlayer* p, int target, int variant) noexcept nogil,
                          void (*take_piece)(CardState* s, CardPlayer* p, int piece) noexcept nogil,
                          bint (*before_pieces)(CardState* s) noexcept nogil,
                          void (*finish_turn)(CardState* s, bint dead_turn) noexcept nogil) noexcept nogil:
    """Plays legal action `a` of the seat to act `p`: a token returned, or the piece it chose
    (the turn is over), or a main action (take, reserve, the game's `buy`, PASS); then the
    end of the turn (cg_end_of_turn). `pieces`: the game's pieces in play as `a` is played."""
    cdef int t
    if s.phase == CPH_PIECE:
        take_piece(s, p, a - first_piece)
        finish_turn(s, False)
        return
    if s.phase == CPH_RETURN:
        cg_return_token(s, p, a - CA_RETURN)
    elif not cg_apply_take_or_reserve(s, p, T, a, wild) and a >= a_buy:
        t = (a - a_buy) // CG_NPAY
        buy(s, p, t, (a - a_buy) - t * CG_NPAY)
    cg_end_of_turn(s, p, kinds, a == a_pass, pieces, n_pieces, requires, take_piece, before_pieces, finish_turn)


# ---------------------------------------------------------------------------- hidden cards
cdef inline void cg_redraw_cards(AnyState* s, int n_players, const int8_t* face_up, int n_face_up,
                                 const int8_t* level, int n_cards, int seat, Rng* rng) noexcept nogil:
    """Redraws the cards `seat` cannot see from those it has not seen: other seats' blind
    reserves (keeping their level), then the decks (keeping their sizes). `face_up`: the
    n_face_up face-up places (-1 empty); `level`: each card id's level (1..3)."""
    cdef uint64_t seen[2]
    cdef int8_t pool[3][CG_MAX_DECK + CG_MAX_RES * CG_MAX_PLAYERS]
    cdef int pool_len[3]
    cdef int i, j, lv, cid, r, tmp
    seen[0] = 0
    seen[1] = 0
    for lv in range(3):
        pool_len[lv] = 0
    for j in range(n_face_up):
        cid = face_up[j]
        if cid >= 0:
            seen[cid >> 6] |= (<uint64_t>1) << (cid & 63)
    for i in range(n_players):
        seen[0] |= s.p[i].owned[0]
        seen[1] |= s.p[i].owned[1]
        for j in range(s.p[i].n_res):
            if (i == seat or not s.p[i].res_blind[j]) and s.p[i].res[j] >= 0:
                cid = s.p[i].res[j]
                seen[cid >> 6] |= (<uint64_t>1) << (cid & 63)
    for cid in range(n_cards):
        if not (seen[cid >> 6] >> (cid & 63)) & 1:
            lv = level[cid] - 1
            pool[lv][pool_len[lv]] = cid
            pool_len[lv] += 1
    for lv in range(3):  # Fisher-Yates
        for i in range(pool_len[lv] - 1, 0, -1):
            r = rng_below(rng, i + 1)
            tmp = pool[lv][i]
            pool[lv][i] = pool[lv][r]
            pool[lv][r] = tmp
    for i in range(n_players):
        if i == seat:
            continue
        for j in range(s.p[i].n_res):
            if s.p[i].res_blind[j]:
                lv = s.p[i].res_level[j] - 1
                pool_len[lv] -= 1
                s.p[i].res[j] = pool[lv][pool_len[lv]]
    for lv in range(3):
        for j in range(s.deck_len[lv]):
            s.deck[lv][j] = pool[lv][j]
    s.observer = -1


cdef inline void cg_resample(CardState* s, const CardTables* T, int seat, Rng* rng) noexcept nogil:
    """Redraws what `seat` cannot see (cg_redraw_cards over the 12 board slots)."""
    cg_redraw_cards(s, s.n_players, &s.board[0][0], 12, T.level, CG_NCARDS, seat, rng)


# ---------------------------------------------------------------------------- positions
cdef inline void cg_read_turn(AnyState* s, pos, phases):
    """From a position: the turn, the seat to act, the phase, the observer and the decks
    (a view has the sizes only); the rest of the block must be zero."""
    cdef int lv, j
    s.current = pos["current"]
    s.start = pos["start_seat"]
    s.phase = phases.index(pos["phase"])
    s.turn = pos["turn"]
    s.observer = -1 if pos["observer"] is None else pos["observer"]
    memset(s.deck, -1, sizeof(s.deck))
    for lv in range(3):
        s.deck_len[lv] = pos["deck_sizes"][lv]
        if pos["decks"] is not None:
            for j, cid in enumerate(pos["decks"][lv]):
                s.deck[lv][j] = cid


cdef inline void cg_read_seat(AnyPlayer* p, seat, int kinds):
    """From a position's seat: its tokens and its reserved cards (hidden: -1)."""
    cdef int k, j
    for k in range(kinds):
        p.tokens[k] = seat["tokens"][k]
    p.n_res = len(seat["reserved"])
    for j, r in enumerate(seat["reserved"]):
        p.res[j] = -1 if r["card"] is None else r["card"]
        p.res_level[j] = r["level"]
        p.res_blind[j] = r["blind"]


cdef inline dict cg_turn_fields(const AnyState* s, phases):
    """The position's start seat, seat to act, phase and turn."""
    return {"start_seat": s.start, "current": s.current, "phase": phases[s.phase], "turn": s.turn}


cdef inline dict cg_deck_fields(const AnyState* s):
    """The position's decks (none in a view) and their sizes."""
    return {
        "decks": None if s.observer >= 0 else [[s.deck[lv][j] for j in range(s.deck_len[lv])] for lv in range(3)],
        "deck_sizes": [s.deck_len[lv] for lv in range(3)],
    }


cdef inline void cg_read_table(CardState* s, pos, phases, int kinds):
    """From a position (the block zeroed first): the turn, the decks, the supply and the board,
    the seat count, the final round and the passes: all but the seats and the game's own."""
    cdef int i, j, lv
    memset(s, 0, sizeof(s[0]))
    cg_read_turn(s, pos, phases)
    s.n_players = pos["players"]
    s.final_round = pos["final_round"]
    s.passes = pos["passes"]
    for i in range(kinds):
        s.supply[i] = pos["supply"][i]
    for lv in range(3):
        for j in range(4):
            s.board[lv][j] = pos["board"][lv][j]


cdef inline int cg_read_pieces(int8_t* pieces, int size, values):
    """A position's pieces in play (nobles, locations), in order, into `pieces` (-1 after
    them, `size` places); returns their count."""
    cdef int i, n = len(values)
    for i in range(size):
        pieces[i] = values[i] if i < n else -1
    return n


cdef inline dict cg_table_fields(const CardState* s, game, phases, int kinds):
    """The position's fields cg_read_table reads (the game's own and the seats follow)."""
    return {"game": game, "players": s.n_players, **cg_turn_fields(s, phases),
            "final_round": bool(s.final_round), "passes": s.passes,
            "supply": [s.supply[j] for j in range(kinds)],
            "board": [[s.board[lv][j] for j in range(4)] for lv in range(3)], **cg_deck_fields(s)}


cdef inline check_mover_knows_reserve(const CardState* s):
    """HiddenInformationError when the seat to act holds a card this view does not know (its
    moves depend on it)."""
    if s.phase == CPH_MAIN and not cg_mover_knows_reserve(s):
        from splendor_ai.games.errors import HiddenInformationError

        raise HiddenInformationError(f"seat {s.current} holds a card this view does not know: "
                                     "its moves depend on it (resample first)")


cdef inline str hidden_draw(const CardState* s, int a, int a_buy):
    """Why a legal action cannot be played on a view (it draws from a deck whose order the
    view does not know), or None."""
    cdef int lv = -1
    if s.observer >= 0 and s.phase == CPH_MAIN:
        lv = cg_draw_level(s, a, a_buy)
    return None if lv < 0 else f"draws from the level-{lv + 1} deck, whose order this view does not know"


cdef inline dict cg_seat_fields(const AnyPlayer* p, int kinds, int n_cards):
    """A position's seat: tokens, cards (sorted ids) and reserved cards."""
    return {
        "tokens": [p.tokens[j] for j in range(kinds)],
        "cards": [j for j in range(n_cards) if (p.owned[j >> 6] >> (j & 63)) & 1],
        "reserved": [{"card": None if p.res[j] < 0 else p.res[j], "level": p.res_level[j],
                      "blind": bool(p.res_blind[j])} for j in range(p.n_res)],
    }


cdef inline int cg_draw_level(const CardState* s, int a, int a_buy) noexcept nogil:
    """The level (0..2) of the deck a main action draws from (a blind reserve, or a face-up
    card replaced from a deck that is not empty), or -1."""
    cdef int lv
    if CA_RES_DECK <= a < CA_RETURN:
        return a - CA_RES_DECK
    if CA_RES_BOARD <= a < CA_RES_DECK:
        lv = (a - CA_RES_BOARD) >> 2
    elif a >= a_buy and (a - a_buy) // CG_NPAY < 12:
        lv = ((a - a_buy) // CG_NPAY) >> 2
    else:
        return -1
    return lv if s.deck_len[lv] > 0 else -1
