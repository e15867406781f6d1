# The sizes, action ids and phases the base game and Marvel share (splendor_ai/games/cards/
# spec.py is the same layout in Python): cimported by base.pxd and marvel.pxd, whose own ids
# follow these, and by cards.pxd, the card-game layer that works with them.

cdef enum:
    CG_LEVELS = 3
    CG_SLOTS = 4
    CG_MAX_DECK = 40
    CG_MAX_RES = 3
    CG_MAX_PLAYERS = 4
    CG_NCARDS = 90
    CG_NPAY = 252
    CG_TARGETS = 15            # buy targets: 12 board slots, 3 own reserves
    # the search's actions at most: 10 take3 + 5 take2 + 15 reserve + 15 buy (or up to 7
    # returns, 5 nobles, 4 locations)
    CG_MAX_SEARCH_ACTIONS = 64
    # the action ids both games share (cards/spec.py); each game's own ids follow
    CA_TAKE3 = 0
    CA_TAKE2D = 10
    CA_TAKE1 = 20
    CA_TAKE2S = 25
    CA_RES_BOARD = 30
    CA_RES_DECK = 42
    CA_RETURN = 45
    # the phases both games number alike (the game's own piece is chosen in CPH_PIECE)
    CPH_MAIN = 0
    CPH_RETURN = 1
    CPH_PIECE = 2
    CPH_OVER = 3
