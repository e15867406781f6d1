"""Chance outcomes given from outside: "the frontend deals".

A frontend that deals the cards itself sends the server only a seat's *view* (no deck
order). A move that draws from a deck (refilling a face-up slot, reserving blind) then has
an outcome the view cannot know; the frontend says which card came out, and
``apply_with_outcome`` plays the move with that card on top of the deck.

It works on position dictionaries and needs nothing game-specific beyond the shape every
game's position shares: ``observer`` (None for a full position), ``decks`` (lists of card
ids, top = last, None in a view) and the game's own validation. A game with other chance
events (Duel's bag) extends this module.
"""
from __future__ import annotations

import random

from . import load_game
from .errors import HiddenInformationError, PositionError


def apply_with_outcome(state, action: int, drawn_card: int | None = None, rng: random.Random | None = None):
    """``state`` after ``action``, as a new state (``state`` is not changed).

    - A full state: the deck decides; ``drawn_card`` must be None.
    - A view whose move draws nothing it cannot know: played as it is; ``drawn_card`` must
      be None.
    - A view whose move draws from a deck: ``drawn_card`` names the card drawn. It must be
      a card the observer has not seen, of that deck's level. The result is the observer's
      view of the position after the move.

    Raises IllegalActionError (the move is not legal), HiddenInformationError (the move
    draws and no ``drawn_card`` was given), and PositionError with ``field`` ``drawn_card``
    (a card that cannot be the one drawn, or one given when nothing is drawn) or
    ``observer`` (the view does not know the cards of the seat to act).
    """
    observer = state.to_position()["observer"]
    after = state.clone()
    try:
        after.apply_action(action)
    except HiddenInformationError as exc:
        if observer is None:
            raise  # a full state knows everything: not a draw problem
        _check_knows_mover(state, observer)
        if drawn_card is None:
            raise HiddenInformationError(f"{exc}; or give the card drawn (drawn_card)") from None
        return _apply_drawn(state, action, drawn_card, rng or random.Random())
    if drawn_card is not None:
        why = ("the position is full: the deck decides what is drawn" if observer is None
               else "this move draws no card the view does not know")
        raise PositionError("drawn_card", why)
    return after


def _check_knows_mover(state, observer: int) -> None:
    """A view can play a seat's move only if it knows every card that seat holds."""
    mover = state.current_player()
    if mover != observer:
        try:
            state.view(mover)
        except HiddenInformationError as exc:
            raise PositionError(
                "observer", f"{exc}: send the view of seat {mover}, the seat to act") from None


def _apply_drawn(state, action: int, drawn_card, rng: random.Random):
    view = state.to_position()
    observer = view["observer"]
    full = state.resample(observer, rng)
    full_pos = full.to_position()
    level = _deck_drawn_from(full, full_pos, action)
    if level is None:  # pragma: no cover - the rules said the move draws
        raise HiddenInformationError("the move needs a card this view does not know")
    hidden = list(_hidden_places(view, full_pos))
    place = next((p for p in hidden if _get(full_pos, p) == drawn_card), None)
    if isinstance(drawn_card, bool) or place is None:
        raise PositionError(
            "drawn_card",
            f"{drawn_card!r} is not a card seat {observer} has not seen (the card drawn comes "
            f"from the level-{level + 1} deck, whose cards are not on the board, bought, or in "
            "a reserve the seat can see)")
    deck = full_pos["decks"][level]
    top = ("decks", level, len(deck) - 1)
    a, b = _get(full_pos, place), _get(full_pos, top)
    _set(full_pos, place, b)
    _set(full_pos, top, a)
    game = load_game(state.game, state.players)
    try:
        dealt = game.state_from_position(full_pos)
    except PositionError as exc:
        raise PositionError(
            "drawn_card", f"card {drawn_card} cannot come from the level-{level + 1} deck ({exc})") from None
    dealt = type(state).from_position(dealt.to_position()) if type(dealt) is not type(state) else dealt
    dealt.apply_action(action)
    return dealt.view(observer)


def _deck_drawn_from(full, full_pos: dict, action: int) -> int | None:
    """The index of the one deck the move takes a card from (tried on a full state)."""
    probe = full.clone()
    probe.apply_action(action)
    after = probe.to_position()["decks"]
    shrunk = [i for i, d in enumerate(full_pos["decks"]) if len(after[i]) < len(d)]
    return shrunk[0] if len(shrunk) == 1 else None


def _hidden_places(view, full, path=()):
    """Paths of the values of ``full`` that the ``view`` does not show (None there)."""
    if view is None and full is not None:
        yield from _leaves(full, path)
    elif isinstance(full, dict) and isinstance(view, dict):
        for key, value in full.items():
            yield from _hidden_places(view.get(key), value, path + (key,))
    elif isinstance(full, list) and isinstance(view, list) and len(full) == len(view):
        for i, (v, f) in enumerate(zip(view, full)):
            yield from _hidden_places(v, f, path + (i,))


def _leaves(value, path):
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _leaves(v, path + (i,))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, path + (k,))
    else:
        yield path


def _get(obj, path):
    for key in path:
        obj = obj[key]
    return obj


def _set(obj, path, value):
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value
