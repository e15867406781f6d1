"""Reasons: why a move is good or bad, as claims about the position that the mover can see.

Every hint and every mistake says *why*. A reason is a ``Reason`` value: a code from one closed
list (``CODES``, in order of importance, game-deciding first) and its subjects (card, piece --
a noble, a royal card or a location --, seat, colour, points, turns, count); ``sentence(reason,
game)`` is its canonical English, made in this one place as the move notation is. docs/reasons.md
gives every code's exact meaning, subjects, sentence and an example, and the games it applies to.

    explain_move(state, action, result=None) -> list[Reason]
        What ``action`` achieves and what it allows, for a hint or an analysis line, most
        important first (a few of each code). ``state``: the position the mover faced, a view or
        a full state (only what the mover sees is used); ``action``: an action id or a move in
        notation; ``result``: the search's SearchResult of that position when there is one
        (its choice and the line it found for the move add SEARCH_BEST and PLANS_BUY).

    explain_mistake(state, played, best, result=None) -> list[Reason]
        For a mistake: what the better move achieves that the played one does not, and what the
        played move allows or gives up that the better one does not. Each reason names its
        move (``Reason.move``): "buy 84 completes noble 3 (+3 points); take wug lets seat 1 buy
        card 77 and win next turn".

    facts(state, action, result=None) -> list[Reason]
        Every true reason of the move, unchosen (what the two above choose from).

    sentence(reason, game) -> str;  Reason.to_dict() / Reason.from_dict(d): the JSON form.

Nothing here names a hidden card: the cards a claim is about are ones the mover saw before
its move (never a refill drawn after a buy, a deck's order, an opponent's blind reserve, Duel's
bag order), and no claim depends on them. ``verify.verify(state, action, reason)`` decides
each claim again by brute force on the readable rules, independently of this code. A hint costs
about a millisecond or less (``splendor-ai bench reasons`` measures it).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..games import HiddenInformationError
from ..games.state import State
from . import base, duel, marvel
from .common import Context, GameFacts, differences, order, select, turn_of
from .vocabulary import BY_NAME, CODES, Code, Reason, ReasonError, sentence, sentences

if TYPE_CHECKING:
    from ..search.mcts import SearchResult

FACTS: dict[str, GameFacts] = {"base": base.FACTS, "duel": duel.FACTS, "marvel": marvel.FACTS}

__all__ = ["CODES", "Code", "Reason", "ReasonError", "explain_mistake", "explain_move", "facts", "sentence",
           "sentences", "BY_NAME"]


def _default_payment(game: str, action: int) -> int:
    """The search's candidate for ``action``: a buy paid another way stands for the buy paid
    the default way (gold only for the shortfall), the only payment the search considers."""
    spec = FACTS[game].spec
    if spec.action_kind(action) == "buy":
        return spec.buy_action(spec.split_buy(action)[0], 0)
    return action


def _check_legal(ctx: Context, action: int) -> None:
    if action not in ctx.view.legal_actions():
        raise ReasonError(f"action {action} is not legal for seat {ctx.mover} here")


def result_facts(ctx: Context, action: int, result: SearchResult | None) -> list[Reason]:
    """What the search says of ``action``: SEARCH_BEST when it is the search's choice, and
    PLANS_BUY when the line it found buys a card the mover sees on the mover's next turn."""
    if result is None:
        return []
    candidate = _default_payment(ctx.game, action)
    stats = next((a for a in result.actions if a.action == candidate), None)
    if stats is None:
        return []
    out = []
    if result.action == candidate:
        out.append(Reason("SEARCH_BEST", count=round(100 * stats.value)))
    spec = FACTS[ctx.game].spec
    state = ctx.view.clone()
    for i, move in enumerate(stats.pv):
        try:
            a = state.string_to_action(move)
        except ValueError:
            break
        if i > 0 and state.current_player() == ctx.mover and turn_of(state) != ctx.turn:
            kind = spec.action_kind(a)
            if kind == "buy":
                cid = int(move.split()[1])
                if cid in FACTS[ctx.game].visible(ctx.pos, ctx.mover):
                    out.append(Reason("PLANS_BUY", card=cid, turns=1))
                break
            if kind not in ("privilege", "replenish"):
                break
        try:
            state.apply_action(a)
        except (ValueError, HiddenInformationError):
            break
        if state.is_terminal():
            break
    return out


def _facts(ctx: Context, action: int, result: SearchResult | None) -> list[Reason]:
    _check_legal(ctx, action)
    ctx.visible = FACTS[ctx.game].visible(ctx.pos, ctx.mover)
    return FACTS[ctx.game].facts(ctx, action) + result_facts(ctx, action, result)


def facts(state: State, action: int | str, result: SearchResult | None = None) -> list[Reason]:
    """Every true reason of ``action`` in ``state`` (the mover's view is used), in order of importance."""
    ctx = Context(state)
    return order(_facts(ctx, ctx.action(action), result))


def explain_move(state: State, action: int | str, result: SearchResult | None = None) -> list[Reason]:
    """What ``action`` achieves and allows, most important first (see the module's docstring)."""
    ctx = Context(state)
    return select(_facts(ctx, ctx.action(action), result))


def explain_mistake(state: State, played: int | str, best: int | str,
                    result: SearchResult | None = None) -> list[Reason]:
    """What ``best`` achieves that ``played`` does not, and what ``played`` allows that ``best``
    does not, each reason naming its move (see the module's docstring). When nothing sets them
    apart (a difference only the search sees), the search's choice (SEARCH_BEST) of ``best``
    when ``result`` is given, else nothing."""
    ctx = Context(state)
    p, b = ctx.action(played), ctx.action(best)
    played_move, best_move = ctx.view.action_to_string(p), ctx.view.action_to_string(b)
    if _default_payment(ctx.game, p) == _default_payment(ctx.game, b):
        return []
    out = differences(_facts(ctx, b, result), _facts(ctx, p, result), best_move, played_move)
    if not out:
        out = [r.with_move(best_move) for r in result_facts(ctx, b, result) if r.code == "SEARCH_BEST"]
    return out
