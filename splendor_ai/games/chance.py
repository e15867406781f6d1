"""Chance outcomes given from outside: "the frontend deals".

A frontend that deals the cards itself sends the server only a seat's *view* (no deck
order). A move that draws from a deck (refilling a face-up slot, reserving blind) then has
an outcome the view cannot know; the frontend says which card came out, and
``apply_with_outcome`` plays the move with that card on top of the deck.

It works on position dictionaries and needs nothing game-specific beyond the shape every
game's position shares: ``observer`` (None for a full position), ``decks`` (lists of card
ids, top = last, None in a view) and the game's own validation.

Duel's bag is the other chance event: a full position holds the bag's draw order (``bag``,
first out first); a view does not, so a ``replenish`` on a view needs the tokens it placed
(``drawn_tokens``: token kinds in the order the empty cells are filled, the spiral order),
which must be exactly the bag's contents.
"""
from __future__ import annotations

import random

from . import load_game
from .errors import HiddenInformationError, PositionError


class UnknownBagDraw(HiddenInformationError):
    """A move on a view draws tokens from the bag and no ``drawn_tokens`` was given."""


def apply_with_outcome(state, action: int, drawn_card: int | None = None, rng: random.Random | None = None,
                       drawn_tokens: list[int] | None = None):
    """``state`` after ``action``, as a new state (``state`` is not changed).

    - A full state: the deck decides; ``drawn_card`` must be None.
    - A view whose move draws nothing it cannot know: played as it is; ``drawn_card`` must
      be None.
    - A view whose move draws from a deck: ``drawn_card`` names the card drawn. It must be
      a card the observer has not seen, of that deck's level. The result is the observer's
      view of the position after the move.
    - A view whose move draws from a bag (Duel's replenish): ``drawn_tokens`` lists the
      token kinds placed, in the order they are placed; they must be the bag's contents.

    Raises IllegalActionError (the move is not legal), HiddenInformationError (the move
    draws and no ``drawn_card`` was given; its subclass UnknownBagDraw: no
    ``drawn_tokens``), and PositionError with ``field`` ``drawn_card`` (a card that cannot be
    the one drawn, or one given when nothing is drawn), ``drawn_tokens`` (likewise for the
    bag) or ``observer`` (the view does not know the cards of the seat to act).
    """
    observer = state.to_position()["observer"]
    after = state.clone()
    try:
        after.apply_action(action)
    except HiddenInformationError as exc:
        if observer is None:
            raise  # a full state knows everything: not a draw problem
        _check_knows_mover(state, observer)
        rng = rng or random.Random()
        if _draws_from_bag(state, observer, action, rng):
            if drawn_card is not None:
                raise PositionError("drawn_card", "this move draws tokens from the bag, not a card: give drawn_tokens")
            if drawn_tokens is None:
                raise UnknownBagDraw(
                    "a view does not know the bag's draw order: give the tokens the move places "
                    "(drawn_tokens: the bag's contents in the order they fill the empty cells, the "
                    "spiral order), or send the full position, whose bag decides") from None
            return _apply_bag_draw(state, action, list(drawn_tokens), rng)
        if drawn_tokens is not None:
            raise PositionError("drawn_tokens", "this move draws a card, not tokens from the bag: give drawn_card")
        if drawn_card is None:
            raise HiddenInformationError(f"{exc}; or give the card drawn (drawn_card)") from None
        return _apply_drawn(state, action, drawn_card, rng)
    for name, given in (("drawn_card", drawn_card), ("drawn_tokens", drawn_tokens)):
        if given is not None:
            why = ("the position is full: it decides what is drawn" if observer is None
                   else "this move draws nothing the view does not know")
            raise PositionError(name, why)
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
    # Where an unseen card can be: the decks and the other seats' blind reserves (not the
    # other hidden values, such as Duel's bag of tokens).
    hidden = [p for p in _hidden_places(view, full_pos) if p[0] in ("decks", "seats")]
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


def _draws_from_bag(state, observer: int, action: int, rng: random.Random) -> bool:
    """Whether ``action`` takes tokens out of a bag (tried on a resampled full state)."""
    full = state.resample(observer, rng)
    before = full.to_position().get("bag")
    if not before:
        return False
    probe = full.clone()
    probe.apply_action(action)
    return len(probe.to_position()["bag"]) < len(before)


def _apply_bag_draw(state, action: int, drawn: list[int], rng: random.Random):
    observer = state.to_position()["observer"]
    full_pos = state.resample(observer, rng).to_position()
    bag = full_pos["bag"]
    if sorted(drawn) != sorted(bag):
        raise PositionError(
            "drawn_tokens", f"{len(drawn)} tokens {sorted(drawn)} (by kind), but a replenish places exactly "
            f"the bag's {len(bag)} tokens {sorted(bag)}")
    full_pos["bag"] = drawn
    dealt = load_game(state.game, state.players).state_from_position(full_pos)
    dealt = type(state).from_position(dealt.to_position()) if type(dealt) is not type(state) else dealt
    dealt.apply_action(action)
    if dealt.to_position()["bag"]:  # pragma: no cover - the rules place the whole bag
        raise PositionError("drawn_tokens", "the move did not place every token of the bag")
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
