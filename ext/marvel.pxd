# Splendor: Marvel: the state block of the core (the contract; the code is in marvel.pyx).
# Card ids, location ids and action ids are those of splendor_ai/games/marvel/spec.py; the
# sizes, ids and phases Marvel shares with the base game are in cardids.pxd.
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from cardids cimport *

cdef enum:
    M_KINDS = 7            # 5 colours, green (Time), grey (S.H.I.E.L.D.)
    M_GREEN = 5
    M_GREY = 6
    M_MAX_LOCATIONS = 4    # in play: as many as players
    M_NLOCATIONS = 8       # sides; 2*tile + side
    M_GAUNTLET_POINTS = 16
    M_AVENGERS_ICONS = 3
    # Marvel's own action ids, after the shared ones (cardids.pxd CA_*)
    MA_LOCATION = 52
    MA_PASS = 60
    MA_BUY = 61
    MA_NUM = MA_BUY + CG_TARGETS * CG_NPAY
    # the phases are cardids.pxd's CPH_* (CPH_PIECE: choosing a location)

ctypedef struct MPlayer:
    int8_t tokens[7]
    int8_t bonus[5]
    int16_t points         # cards + locations + the Avengers tile while held
    int8_t icons           # Avengers icons on the seat's cards
    int8_t n_cards
    int8_t n_res
    int8_t res[3]          # card id, -1 = hidden from this state's observer
    int8_t res_level[3]    # 1..3
    int8_t res_blind[3]
    uint8_t locations      # bit per location side id
    uint64_t owned[2]      # bit per card id

ctypedef struct MState:
    int8_t n_players
    int8_t current
    int8_t start
    int8_t phase
    int8_t final_round
    int8_t passes
    int8_t observer        # -1: a full state; else the seat whose view this is
    int8_t n_locations
    int8_t avengers        # the seat holding the Avengers Assemble tile, -1 none
    int32_t turn
    int8_t supply[7]
    int8_t board[3][4]     # card id or -1
    int8_t deck_len[3]
    int8_t deck[3][40]     # bottom..top; -1 where unknown (a view)
    int8_t locations[4]    # in play, still available, in order
    MPlayer p[4]

# The functions the core exports are reached through its GameDef (game.pxd), which
# marvel.pyx fills in; this file declares only the state block and the constants.
