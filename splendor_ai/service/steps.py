"""The service's domain steps that are not searches, beside the engine (engine.py): deal a new
game, list the legal moves (and the cards each other seat could buy next turn), apply moves,
reduce a position to what its search sees, restrict a search to candidate moves. Each takes
decoded values (convert.py) and raises FieldError or IllegalMove naming the request's field.
"""
from __future__ import annotations

import random

from splendor.v1 import splendor_pb2 as pb

from .. import reasons
from ..games import HiddenInformationError, IllegalActionError, PositionError, load_game
from ..games.chance import UnknownBagDraw, apply_with_outcome
from ..games.cards.spec import last_seat
from ..games.registry import spec
from .convert import check_count, decode_move, drawn_card, drawn_tokens, encode_move, game_name, is_view, title
from .errors import FieldError, IllegalMove


def new_game(request: pb.NewGameRequest):
    """(state, seed) for a NewGame request."""
    name = game_name(request.game)
    players = request.players or 2
    counts = spec(name).PLAYER_COUNTS
    if players not in counts:
        allowed = " or ".join(map(str, counts)) if len(counts) < 3 else f"{counts[0]} to {counts[-1]}"
        raise FieldError("players", f"{title(name)} is for {allowed} players, not {players}")
    seed = request.seed if request.HasField("seed") else random.SystemRandom().getrandbits(63)
    return load_game(name, players).new_initial_state(seed), seed


def not_over(state, field: str = "position") -> None:
    """FAILED_PRECONDITION naming ``field`` when ``state``'s game is over."""
    if state.is_terminal():
        raise IllegalMove(field, "the game is over: there is no move to search")


def searched_state(state, perfect_information: bool, field: str = "position"):
    """What a search of ``state`` sees: the mover's view, or the full state when asked for."""
    not_over(state, field)
    if perfect_information:
        if is_view(state):
            raise FieldError("perfect_information", "needs a full position (this one is a seat's view)")
        return state
    return mover_view(state, field)


def mover_view(state, field: str = "position"):
    try:
        return state.view(state.current_player())
    except HiddenInformationError as exc:
        raise FieldError(f"{field}.{state.game}.observer", f"{exc}: send the view of the seat to act") from None


def legal_actions(state, all_payments: bool, field: str = "position") -> list[int]:
    try:
        return state.legal_actions() if all_payments else state.search_actions()
    except HiddenInformationError as exc:
        raise FieldError(f"{field}.{state.game}.observer", f"{exc}: send the view of the seat to act") from None


THREAT_SEED = 0  # the redraw of what a view hides, for threats (fixed: the same answer every call)


def threats(state) -> list[tuple[int, list[int]]]:
    """LegalActions' ``threats``: for each seat but the one to act, in seat order, the cards it
    could buy on its next turn if the board and its tokens stayed as they are now -- the test of
    the reasons' OPPONENT_CAN_BUY (splendor_ai/reasons): the position with that seat to start
    its turn, and its buys among the search's moves there (Duel: also after the privileges it
    may use first). Only cards every seat sees: face up, or in that seat's reserve when reserved
    face up. Empty for a seat without a next turn (the last round) and where that position is
    not a valid one (the seat to act over the token limit in the middle of its turn)."""
    if state.is_terminal():
        return []
    pos = state.to_position()
    return [(seat, _next_turn_buys(state.game, pos, seat)) for seat in range(pos["players"])
            if seat != pos["current"]]


def _has_next_turn(pos: dict, seat: int) -> bool:
    """In the last round (base, Marvel) only the seats before the round's last one still play."""
    if not pos.get("final_round"):
        return True
    n, current = pos["players"], pos["current"]
    return 0 < (seat - current) % n <= (last_seat(pos) - current) % n


def _next_turn_buys(game: str, pos: dict, seat: int) -> list[int]:
    if not _has_next_turn(pos, seat):
        return []
    t = dict(pos, current=seat, phase="main", turn=pos["turn"] + 1)
    if game == "duel":
        t.update(extra_turn=False, pending_card=None)
    else:
        t.update(passes=0)
    try:
        start = load_game(game, pos["players"]).state_from_position(t)
        if pos["observer"] is not None:  # a view: what it hides redrawn (only public cards are answered)
            start = start.resample(pos["observer"], random.Random(THREAT_SEED))
    except (PositionError, HiddenInformationError):
        return []
    rules = spec(game)
    public = {c for row in pos["pyramid" if game == "duel" else "board"] for c in row if c >= 0}
    public.update(r["card"] for r in pos["seats"][seat]["reserved"] if r["card"] is not None and not r["blind"])
    found: set[int] = set()
    seen = {tuple(pos["seats"][seat]["tokens"])}
    stack = [start]
    while stack:  # Duel: each way to use privileges first, by the tokens they give (at most 3 deep)
        s = stack.pop()
        for a in s.search_actions():
            kind = rules.action_kind(a)
            if kind == "buy":
                found.add(int(s.action_to_string(a).split()[1]))  # "buy 17"
            elif kind == "privilege":
                after = s.clone()
                after.apply_action(a)
                tokens = tuple(after.to_position()["seats"][seat]["tokens"])
                if tokens not in seen:
                    seen.add(tokens)
                    stack.append(after)
    return sorted(found & public)


def apply_moves(state, moves, field: str = "moves"):
    """(new state, canonical moves) after playing ``moves`` in order (all or nothing)."""
    check_count(moves, field)
    applied = []
    for i, m in enumerate(moves):
        f = f"{field}[{i}]"
        action = decode_move(state, m, f)
        tokens = drawn_tokens(state, m, f"{f}.drawn_tokens")
        before = state.to_position()
        try:
            state = apply_with_outcome(state, action, drawn_card(m), drawn_tokens=tokens)
        except IllegalActionError as exc:
            raise IllegalMove(f, str(exc)) from None
        except UnknownBagDraw as exc:
            raise FieldError(f"{f}.drawn_tokens", f"missing: {exc}") from None
        except HiddenInformationError as exc:
            raise FieldError(f"{f}.drawn_card", f"missing: {exc}") from None
        except PositionError as exc:
            if exc.field == "observer":
                raise FieldError(f"position.{state.game}.observer", f"{f}: {exc.problem}") from None
            raise FieldError(f"{f}.{exc.field}", exc.problem) from None
        applied.append(encode_move(before, action))
    return state, applied


def illegal(state, action: int, field: str) -> IllegalMove:
    return IllegalMove(field, spec(state.game).explain_illegal(state.to_position(), action))


def candidate_actions(searched, moves, field: str = "candidates") -> list[int] | None:
    """The root actions an analysis is restricted to (None: all). A buy paid another way
    stands for the same buy with the default payment, the one the search considers."""
    if not moves:
        return None
    check_count(moves, field)
    legal = set(legal_actions(searched, all_payments=True))
    rules = spec(searched.game)
    out = []
    for i, m in enumerate(moves):
        a = decode_move(searched, m, f"{field}[{i}]")
        if a not in legal:
            raise illegal(searched, a, f"{field}[{i}]")
        if rules.action_kind(a) == "buy":
            a = rules.buy_action(rules.split_buy(a)[0])
        out.append(a)
    return sorted(set(out))


def line_reasons(searched, result, lines: int) -> dict[int, list]:
    """Why, for each line an Analyze reports (``lines``, 0 = all): ``reasons.explain_move`` of its
    move in the searched position, with the search's result (about half a millisecond a line)."""
    shown = result.actions[:lines] if lines else result.actions
    return {a.action: reasons.explain_move(searched, a.action, result) for a in shown}
