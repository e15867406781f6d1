# Splendor (base game): the state block of the core (the contract; the code is in base.pyx).
# Card ids, noble ids and action ids are those of splendor_ai/games/base/spec.py; the sizes,
# ids and phases the base game shares with Marvel are in cardids.pxd.
from libc.stdint cimport int8_t, int16_t, int32_t, uint16_t, uint64_t
from cardids cimport *

cdef enum:
    B_KINDS = 6            # 5 colours + gold
    B_GOLD = 5
    B_MAX_NOBLES = 5
    B_NNOBLES = 10
    # the base game's own action ids, after the shared ones (cardids.pxd CA_*)
    A_NOBLE = 51
    A_PASS = 61
    A_BUY = 62
    A_NUM = A_BUY + CG_TARGETS * CG_NPAY
    # the phases are cardids.pxd's CPH_* (CPH_PIECE: choosing a noble)

ctypedef struct BPlayer:
    int8_t tokens[6]
    int8_t bonus[5]
    int16_t points
    int8_t n_cards
    int8_t n_res
    int8_t res[3]          # card id, -1 = hidden from this state's observer
    int8_t res_level[3]    # 1..3
    int8_t res_blind[3]
    uint16_t nobles        # bit per noble id
    uint64_t owned[2]      # bit per card id

ctypedef struct BState:
    int8_t n_players
    int8_t current
    int8_t start
    int8_t phase
    int8_t final_round
    int8_t passes
    int8_t observer        # -1: a full state; else the seat whose view this is
    int8_t n_nobles
    int32_t turn
    int8_t supply[6]
    int8_t board[3][4]     # card id or -1
    int8_t deck_len[3]
    int8_t deck[3][40]     # bottom..top; -1 where unknown (a view)
    int8_t nobles[5]       # revealed, still available, in order
    BPlayer p[4]

# The functions the core exports are reached through its GameDef (game.pxd), which
# base.pyx fills in; this file declares only the state block and the constants.
