# The one C-level game interface: each core (ext/<game>.pyx) fills a GameDef with pointers
# to its noexcept nogil functions and hands it out in a PyCapsule named "splendor_ai.GameDef"
# (module function `game_def()`). The search (ext/search.pyx) drives any game through it, on
# opaque state blocks of `state_size` bytes that are copied with memcpy.
from rng cimport Rng

ctypedef struct GameDef:
    const char* name
    int state_size          # bytes of one state; a copy is a memcpy
    int max_actions         # upper bound on the count legal_actions writes
    int num_actions         # size of the dense action-id space
    int max_players
    int (*n_players)(const void* s) noexcept nogil
    # The seat to act, or -1 once the game is over.
    int (*current_player)(const void* s) noexcept nogil
    # The search's action set (gold only for the shortfall), sorted; returns the count.
    int (*legal_actions)(const void* s, int* out) noexcept nogil
    # Plays an action known to be legal.
    void (*apply)(void* s, int action) noexcept nogil
    # Per seat: 1 win, 0 loss, shared wins split; all 0 before the end.
    void (*returns)(const void* s, double* out) noexcept nogil
    # Redraws everything `seat` cannot see from the cards it has not seen.
    void (*resample)(void* s, int seat, Rng* rng) noexcept nogil
    # Heuristic: per seat, a probability of winning (sums to 1); used at rollout cut-offs.
    void (*evaluate)(const void* s, double* out) noexcept nogil
    # Rollout policy: a legal action (of the search's set) to play next.
    int (*rollout_action)(const void* s, Rng* rng) noexcept nogil
    # Prior weights for the tree policy over acts[0..n) (need not be normalised).
    void (*priors)(const void* s, const int* acts, int n, float* out) noexcept nogil
    # --- learned evaluation (docs/learned.md)
    int num_features        # length of the encoding `features` writes
    int policy_size         # classes of the policy head (see policy_index)
    # The seat to act's information set, encoded relative to that seat (never a card it
    # cannot see): writes num_features floats. Only called while current_player >= 0.
    void (*features)(const void* s, float* out) noexcept nogil
    # The policy-head class of an action id (payment variants of one buy share a class).
    int (*policy_index)(int action) noexcept nogil


cdef inline void game_def_init(
        GameDef* d, const char* name, int state_size, int max_actions, int num_actions, int max_players,
        int (*n_players)(const void*) noexcept nogil, int (*current_player)(const void*) noexcept nogil,
        int (*legal_actions)(const void*, int*) noexcept nogil, void (*apply)(void*, int) noexcept nogil,
        void (*returns)(const void*, double*) noexcept nogil, void (*resample)(void*, int, Rng*) noexcept nogil,
        void (*evaluate)(const void*, double*) noexcept nogil, int (*rollout_action)(const void*, Rng*) noexcept nogil,
        void (*priors)(const void*, const int*, int, float*) noexcept nogil, int num_features, int policy_size,
        void (*features)(const void*, float*) noexcept nogil, int (*policy_index)(int) noexcept nogil) noexcept nogil:
    """Fills a core's GameDef: the one way a core registers with the search (in its order)."""
    d.name, d.state_size, d.max_actions, d.num_actions, d.max_players = (
        name, state_size, max_actions, num_actions, max_players)
    d.n_players, d.current_player, d.legal_actions, d.apply = n_players, current_player, legal_actions, apply
    d.returns, d.resample, d.evaluate, d.rollout_action, d.priors = returns, resample, evaluate, rollout_action, priors
    d.num_features, d.policy_size, d.features, d.policy_index = num_features, policy_size, features, policy_index
