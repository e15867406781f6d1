# What the cores of the base game and Marvel share beyond the card layer (cards.pxd,
# cardsearch.pxd), included at the top of base.pyx and marvel.pyx, where each has named its
# state struct CardStateT and imported its spec module as _spec:
# - the card tables CT (filled from the spec here; the game fills its own tables after);
# - the core's GameDef, GAME_DEF (the game registers with game_def_init), and the GameDef
#   entries that only read the block as the game's struct: the search's actions and every
#   legal action, both from the game's `_phase_actions(s, out, all_payments)`;
# - the Python face: the one every core shares (coreface.pxi, included here) and
#   CardCoreState, the base class of the two games' CoreState. It reads and writes what the
#   two games' positions share (the turn, the supply, the board, the decks, the seats'
#   tokens, cards and reserves) and answers what they answer alike; the core's CoreState
#   adds its own pieces and fields (_read_own, _own_fields) and its own queries.
from libc.stdint cimport int8_t
from rng cimport Rng
from cards cimport *
from cardsearch cimport *
from game cimport GameDef, game_def_init

cdef CardTables CT                      # the cards and the shared layout (cards.pxd)
cg_init_tables(&CT, _spec)
cdef CardStateT _LAYOUT
cg_check_layout(&_LAYOUT)               # the block starts with CardTurn (cards.pxd), or no import
cdef GameDef GAME_DEF                   # the core's entry in the search's table (game.pxd)


cdef int card_search_actions(const void* s, int* out) noexcept nogil:
    """GameDef.legal_actions: the search's actions (wild tokens only for the shortfall)."""
    return _phase_actions(<const CardStateT*>s, out, False)


cdef int card_legal_actions(const void* s, int* out) noexcept nogil:
    """Every legal action, all payment variants (the Python face's legal_actions)."""
    return _phase_actions(<const CardStateT*>s, out, True)


include "coreface.pxi"


cdef class CardCoreState(CoreFace):
    """A state of the base game or Marvel in its Cython core (see CoreFace)."""

    cdef CardStateT s

    game = _spec.GAME
    _spec = _spec
    _kinds = len(_spec.TOKEN_NAMES)   # the game's token kinds
    _buy = _spec.BUY                  # the game's first buy action id

    def __cinit__(self):
        self.block = <char*>&self.s
        self.gd = &GAME_DEF
        self.all_actions = card_legal_actions

    cdef _read_own(self, pos):
        """The game's own fields of a position (its pieces, its seats' own parts), after the
        shared ones."""

    cdef dict _own_fields(self):
        """The game's own fields of the position, besides the seats'."""
        return {}

    cdef dict _own_seat_fields(self, int seat):
        """A seat's own fields in the position."""
        return {}

    @classmethod
    def from_position(cls, pos):
        """From a validated position dictionary (spec.validate_position / initial_position)."""
        cdef CardCoreState st = cls.__new__(cls)
        cdef int i, cid, kinds = cls._kinds
        cg_read_table(&st.s, pos, _spec.PHASES, kinds)
        for i, seat in enumerate(pos["seats"]):
            cg_read_seat(&st.s.p[i], seat, kinds)
            for cid in seat["cards"]:
                cg_own_card(&st.s.p[i], &CT, cid)
        st._read_own(pos)
        return st

    def to_position(self):
        """The canonical position dictionary (docs/positions.md, docs/marvel.md)."""
        cdef int i, kinds = self._kinds
        pos = {**cg_table_fields(&self.s, _spec.GAME, _spec.PHASES, kinds), **self._own_fields()}
        pos["seats"] = [{**cg_seat_fields(&self.s.p[i], kinds, CG_NCARDS), **self._own_seat_fields(i)}
                        for i in range(self.s.n_players)]
        pos["observer"] = None if self.s.observer < 0 else self.s.observer
        return pos

    def phase(self):
        return _spec.PHASES[self.s.phase]

    def points(self, int seat):
        return self.s.p[seat].points

    def bonuses(self, int seat):
        return [self.s.p[seat].bonus[c] for c in range(5)]

    cdef _check_known(self):
        check_mover_knows_reserve(&self.s)

    cdef str _hidden_draw(self, int a):
        cdef int buy = self._buy
        return hidden_draw(&self.s, a, buy)
