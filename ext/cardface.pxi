# The Python face of the cores of the base game and Marvel (included by base.pyx and
# marvel.pyx after coreface.pxi, where each has named its state struct CardStateT and its
# GameDef GAME_DEF): CardCoreState, the base class of their CoreState. It reads and writes
# what the two games' positions share (the turn, the supply, the board, the decks, the seats'
# tokens, cards and reserves) and answers what they answer alike; the core's CoreState adds
# its own pieces and fields (_read_own, _own_fields) and its own queries.


cdef class CardCoreState(CoreFace):
    """A state of the base game or Marvel in its Cython core (see CoreFace)."""

    cdef CardStateT s

    game = _spec.GAME
    _spec = _spec
    _kinds = 0   # the game's token kinds (its CoreState sets it)
    _buy = 0     # the game's first buy action id (its CoreState sets it)

    def __cinit__(self):
        self.block = <char*>&self.s
        self.gd = &GAME_DEF

    cdef _read_own(self, pos):
        """The game's own fields of a position (its pieces, its seats' own parts)."""

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
        cdef int kinds = cls._kinds
        cg_read_table(&st.s, pos, _spec.PHASES, kinds)
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
