"""The card-game layer: what the games of the family share, written once.

- ``common``: what every game (base, Marvel, Duel) shares: the field checks of position
  validation, the data files, card ids in the notation, and the hidden information of
  decks and blind reserves (views, the unseen pool, resampling).
- ``spec``: ``CardGameSpec``, the spec of a game of the base game's shape (base and Marvel):
  the take / reserve / buy action layout, payments and their variants, the notation, the
  position dictionary and its validation, the text drawing. Each game's ``spec.py`` makes
  one and adds what is its own (nobles; locations, the Avengers tile and the Gauntlet).
- ``reference``: ``CardGameReference``, the readable rules those two games share (taking,
  reserving, buying and paying, token returns, the end of the turn); each game's
  ``reference.py`` subclasses it with its own clauses.

The compiled cores share the same layer in C: ``ext/cards.pxd``.
"""
