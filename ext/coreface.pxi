# The Python face of the cores (the State protocol of splendor_ai/games/state.py), written
# once for every game and included by each core (ext/<game>.pyx): the core's CoreState
# subclasses CoreFace, keeps its state struct, and adds only what reads that struct
# (from_position, to_position, phase, the game's queries and hidden-card checks).
# Everything here goes through the core's GameDef (game.pxd; the includer names it GAME_DEF)
# and the game's spec module.
from libc.string cimport memcpy
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from rng cimport Rng, rng_seed, rng_below
from game cimport GameDef

from splendor_ai.games.cards.common import check_knows_seat
from splendor_ai.games.errors import HiddenInformationError, IllegalActionError

cdef enum:
    MAX_ACTION_IDS = 4096       # above every game's num_actions
    MAX_SEATS = 4

cdef int _scratch[MAX_ACTION_IDS]  # legal actions, for the Python API (under the GIL)


def game_def():
    """The core's GameDef (game.pxd) in a capsule, for the search."""
    return PyCapsule_New(&GAME_DEF, b"splendor_ai.GameDef", NULL)


def _rebuild(cls, position):
    """Unpickling: the state class from its position dictionary."""
    return cls.from_position(position)


cdef int _playout(const GameDef* gd, void* s, Rng* rng, int max_actions) noexcept nogil:
    """Plays uniformly random search actions until the end (or max_actions); returns the count."""
    cdef int acts[256]
    cdef int n, count = 0
    while gd.current_player(s) >= 0 and count < max_actions:
        n = gd.legal_actions(s, acts)
        gd.apply(s, acts[rng_below(rng, n)])
        count += 1
    return count


cdef class CoreFace:
    """A state of a game in its Cython core; see splendor_ai/games/state.py for the API.
    Subclassed by the core's CoreState, whose __cinit__ sets the three pointers."""

    cdef const GameDef* gd
    cdef char* block                # the subclass's state struct (gd.state_size bytes)
    # every legal action (all payment variants), sorted; the search's set is gd.legal_actions
    cdef int (*all_actions)(const void* s, int* out) noexcept nogil

    cdef _check_known(self):
        """Raises HiddenInformationError when the mover's moves depend on a card this view
        does not know (the core's own check)."""

    cdef str _hidden_draw(self, int action):
        """Why this legal action needs what a view does not know, or None (the core's own)."""
        return None

    @property
    def players(self):
        return self.gd.n_players(self.block)

    def _state_bytes(self):
        """The raw state block, for the search (its GameDef reads it)."""
        return PyBytes_FromStringAndSize(self.block, self.gd.state_size)

    @classmethod
    def _from_state_bytes(cls, bytes data):
        cdef CoreFace st = cls.__new__(cls)
        if len(data) != st.gd.state_size:
            raise ValueError("state block of the wrong size")
        memcpy(st.block, <const char*>data, st.gd.state_size)
        return st

    def __reduce__(self):
        return (_rebuild, (type(self), self.to_position()))

    def __repr__(self):
        pos = self.to_position()
        return f"<CoreState {self.game} {pos['players']}p turn {pos['turn']} {pos['phase']}>"

    def __str__(self):
        text = self._spec.render_position(self.to_position())
        if self.is_terminal():
            text += "\nover, returns " + " ".join(f"{r:g}" for r in self.returns())
        return text

    def current_player(self):
        return self.gd.current_player(self.block)

    def is_terminal(self):
        return self.gd.current_player(self.block) < 0

    def legal_actions(self):
        cdef int n, i
        self._check_known()
        n = self.all_actions(self.block, _scratch)
        return [_scratch[i] for i in range(n)]

    def search_actions(self):
        cdef int n, i
        self._check_known()
        n = self.gd.legal_actions(self.block, _scratch)
        return [_scratch[i] for i in range(n)]

    def apply_action(self, action):
        cdef int a, n, i
        cdef bint found = False
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action is an integer id, got {action!r}")
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if not 0 <= action < self.gd.num_actions:
            raise IllegalActionError(f"action id {action} is outside 0..{self.gd.num_actions - 1}")
        a = action
        self._check_known()
        n = self.all_actions(self.block, _scratch)
        for i in range(n):
            if _scratch[i] == a:
                found = True
                break
        if not found:
            raise IllegalActionError(self._spec.explain_illegal(self.to_position(), a))
        hidden = self._hidden_draw(a)
        if hidden is not None:
            raise HiddenInformationError(f"{self.action_to_string(a)}: {hidden}; call resample first")
        self.gd.apply(self.block, a)

    def clone(self):
        cdef CoreFace c = type(self).__new__(type(self))
        memcpy(c.block, self.block, self.gd.state_size)
        return c

    def returns(self):
        cdef double out[MAX_SEATS]
        self.gd.returns(self.block, out)
        return [out[i] for i in range(self.gd.n_players(self.block))]

    def evaluate(self):
        """The search's heuristic evaluation (GameDef.evaluate): per seat a win probability;
        the returns once the game is over."""
        cdef double out[MAX_SEATS]
        self.gd.evaluate(self.block, out)
        return [out[i] for i in range(self.gd.n_players(self.block))]

    def features(self):
        """The learned evaluation's input for the seat to act (GameDef.features): num_features
        float32 values in native byte order (splendor_ai/games/<game>/features.py defines them)."""
        if self.is_terminal():
            raise ValueError("the game is over: no seat is to act, so there are no features")
        out = PyBytes_FromStringAndSize(NULL, self.gd.num_features * sizeof(float))
        self.gd.features(self.block, <float*>PyBytes_AS_STRING(out))
        return out

    def view(self, seat):
        """This position as ``seat`` sees it: hidden cards unknown."""
        pos = self.to_position()
        check_knows_seat(pos, seat)
        if pos["observer"] == seat:  # already that seat's view (a frontend's request): nothing more to hide
            return self.clone()
        return type(self).from_position(self._spec.view_position(pos, seat))

    def resample(self, seat, rng):
        """A full state: what `seat` cannot see is redrawn (rng: a random.Random)."""
        cdef Rng r
        cdef CoreFace c
        check_knows_seat(self.to_position(), seat)
        c = self.clone()
        rng_seed(&r, rng.getrandbits(64))
        self.gd.resample(c.block, seat, &r)
        return c

    def action_to_string(self, action):
        return self._spec.action_to_string(self.to_position(), action)

    def string_to_action(self, text):
        return self._spec.string_to_action(self.to_position(), text)

    def random_playout(self, unsigned long long seed, int max_actions=100000):
        """Plays random search actions in place (the benchmark's inner loop); returns the count."""
        cdef Rng r
        cdef int n
        rng_seed(&r, seed)
        with nogil:
            n = _playout(self.gd, self.block, &r, max_actions)
        return n


def random_playouts(CoreFace start, int games, unsigned long long seed):
    """Plays `games` random games from `start` (copies), GIL released; returns the action count."""
    cdef Rng r
    cdef long long total = 0
    cdef int g
    cdef CoreFace s = start.clone()
    rng_seed(&r, seed)
    with nogil:
        for g in range(games):
            memcpy(s.block, start.block, start.gd.state_size)
            total += _playout(start.gd, s.block, &r, 100000)
    return total
