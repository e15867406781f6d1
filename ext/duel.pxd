# Splendor Duel: the state block of the core (the contract; the code is in duel.pyx).
# Card ids, royal ids, cells and action ids are those of splendor_ai/games/duel/spec.py.
from libc.stdint cimport int8_t, int32_t, uint8_t, uint64_t

cdef enum:
    D_CELLS = 25
    D_KINDS = 7            # 5 gems, pearl, gold
    D_PEARL = 5
    D_GOLD = 6
    D_JOKER = 5            # card colours beyond the gems
    D_NO_COLOR = 6
    D_PYRAMID = 12         # flat pyramid slots: level 1 0..4, level 2 5..8, level 3 9..11
    D_MAX_DECK = 30
    D_MAX_RES = 3
    D_NCARDS = 67
    D_NROYALS = 4
    D_NJOKERS = 9
    D_NLINES = 145
    D_NPAY = 84
    # ability bits (spec.ABILITY_BITS)
    AB_EXTRA = 1
    AB_WILD = 2
    AB_TOKEN = 4
    AB_PRIVILEGE = 8
    AB_STEAL = 16
    # action-id layout (spec.py)
    A_PRIVILEGE = 0
    A_REPLENISH = 25
    A_TAKE = 26
    A_GOLD = 171
    A_RESERVE = 196
    A_RES_DECK = 208
    A_TOKEN = 211
    A_STEAL = 236
    A_JOKER = 242
    A_ROYAL = 247
    A_DISCARD = 251
    A_PASS = 258
    A_BUY = 259
    A_NUM = 259 + 15 * 84
    D_MAX_SEARCH_ACTIONS = 200   # 25 privileges + replenish + 145 lines + 3 gold + 15 buys
    # phases (spec.PHASES)
    PH_MAIN = 0
    PH_MANDATORY = 1
    PH_RESERVE = 2
    PH_JOKER = 3
    PH_TOKEN = 4
    PH_STEAL = 5
    PH_ROYAL = 6
    PH_DISCARD = 7
    PH_OVER = 8

ctypedef struct DPlayer:
    int8_t tokens[7]
    int8_t bonus[5]
    int8_t color_points[5] # points of the cards of each colour (jokers in their colour)
    int8_t points          # cards and royals
    int8_t crowns
    int8_t privileges
    int8_t n_res
    int8_t res[3]          # card id, -1 = hidden from this state's observer
    int8_t res_level[3]    # 1..3
    int8_t res_blind[3]
    int8_t n_royals
    uint8_t royals         # bit per royal id
    uint64_t owned[2]      # bit per card id

ctypedef struct DState:
    int8_t current
    int8_t start
    int8_t phase
    int8_t extra_turn
    int8_t pending         # card whose ability is being resolved (joker, token), or -1
    int8_t observer        # -1: a full state; else the seat whose view this is
    int8_t privileges      # in the supply
    uint8_t royals         # bit per royal still available
    int32_t turn
    int8_t board[25]       # token kind per cell (row * 5 + col), -1 empty
    int8_t bag_len
    int8_t bag[25]         # draw order, bag[0] first (a view: contents only)
    uint64_t bag_seed
    int8_t pyramid[12]     # card id or -1
    int8_t deck_len[3]
    int8_t deck[3][30]     # bottom..top; -1 where unknown (a view)
    int8_t joker_color[9]  # per joker (spec order), its colour once owned and chosen, else -1
    DPlayer p[2]

# The functions the core exports are reached through its GameDef (game.pxd), which
# duel.pyx fills in; this file declares only the state block and the constants.
