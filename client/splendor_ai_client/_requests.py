"""Request building shared by the blocking and the asyncio client."""
from __future__ import annotations

from typing import Iterable, Optional, Union

from splendor.v1 import splendor_pb2 as pb

from .types import Move

GAMES = {"base": pb.GAME_BASE, "duel": pb.GAME_DUEL, "marvel": pb.GAME_MARVEL}
MoveLike = Union[str, Move, pb.Move]
PositionLike = Union[pb.Position, pb.BasePosition, pb.DuelPosition, pb.MarvelPosition]
_ONEOF = {pb.BasePosition: "base", pb.DuelPosition: "duel", pb.MarvelPosition: "marvel"}


def game(name: str) -> pb.Game:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (one of {', '.join(GAMES)})") from None


def position(p: PositionLike) -> pb.Position:
    if isinstance(p, pb.Position):
        return p
    if type(p) in _ONEOF:
        return pb.Position(**{_ONEOF[type(p)]: p})
    raise TypeError(f"a position is a splendor_pb2.Position (or a Base/Duel/MarvelPosition), not {type(p).__name__}")


def move(m: MoveLike, drawn_card: Optional[int] = None, drawn_tokens: Optional[str] = None) -> pb.Move:
    """A Move message from a notation string, a typed Move or a Move message."""
    if isinstance(m, str):
        out = pb.Move(notation=m)
    elif isinstance(m, Move):
        out = pb.Move()
        out.CopyFrom(m.raw)
    elif isinstance(m, pb.Move):
        out = pb.Move()
        out.CopyFrom(m)
    else:
        raise TypeError(f"a move is a notation string, a Move or a splendor_pb2.Move, not {type(m).__name__}")
    if drawn_card is not None:
        out.drawn_card = drawn_card
    if drawn_tokens is not None:
        out.drawn_tokens = drawn_tokens
    return out


def with_drawn_card(m: MoveLike, card: int) -> pb.Move:
    """``m`` with the card it draws from a deck (ApplyActions on a view: the frontend deals)."""
    return move(m, drawn_card=card)


def with_drawn_tokens(m: MoveLike, tokens: str) -> pb.Move:
    """A Duel ``replenish`` with the tokens it placed, as letters in the order the empty cells
    are filled (ApplyActions on a view: the frontend draws from the bag)."""
    return move(m, drawn_tokens=tokens)


PRIORITIES = {None: pb.PRIORITY_UNSPECIFIED, "interactive": pb.PRIORITY_INTERACTIVE, "batch": pb.PRIORITY_BATCH}


def priority(name: Optional[str]) -> pb.Priority:
    """``"interactive"``, ``"batch"`` or None (the RPC's default: docs/protocol.md#priority)."""
    try:
        return PRIORITIES[name]
    except KeyError:
        raise ValueError(f"priority must be 'interactive', 'batch' or None, not {name!r}") from None


def limits(iterations: Optional[int], time_ms: Optional[int]) -> pb.SearchLimits:
    return pb.SearchLimits(iterations=iterations or 0, time_ms=time_ms or 0)


def get_move(position_: PositionLike, *, level: Optional[int], iterations: Optional[int], time_ms: Optional[int],
             threads: int, seed: Optional[int], temperature: Optional[float], perfect_information: bool,
             lines: int, request_id: str, turn_elapsed_ms: int = 0,
             priority_: Optional[str] = None) -> pb.GetMoveRequest:
    if isinstance(turn_elapsed_ms, bool) or not isinstance(turn_elapsed_ms, int) or turn_elapsed_ms < 0:
        raise ValueError(f"turn_elapsed_ms must be a whole number of milliseconds, 0 or more, got {turn_elapsed_ms!r}")
    req = pb.GetMoveRequest(request_id=request_id, position=position(position_), threads=threads, lines=lines,
                            perfect_information=perfect_information, turn_elapsed_ms=min(turn_elapsed_ms, 2**32 - 1),
                            priority=priority(priority_))
    if level is not None:
        if iterations is not None or time_ms is not None:
            raise ValueError("give a level or limits (iterations, time_ms), not both")
        req.level = level
    elif iterations is not None or time_ms is not None:
        req.limits.CopyFrom(limits(iterations, time_ms))
    if seed is not None:
        req.seed = seed
    if temperature is not None:
        req.temperature = temperature
    return req


def analyze(position_: PositionLike, *, iterations: Optional[int], time_ms: Optional[int], threads: int,
            seed: Optional[int], lines: int, candidates: Iterable[MoveLike], report_every_ms: int,
            perfect_information: bool, request_id: str, priority_: Optional[str] = None) -> pb.AnalyzeRequest:
    req = pb.AnalyzeRequest(request_id=request_id, position=position(position_),
                            limits=limits(iterations, time_ms), threads=threads, lines=lines,
                            candidates=[move(c) for c in candidates], report_every_ms=report_every_ms,
                            perfect_information=perfect_information, priority=priority(priority_))
    if seed is not None:
        req.seed = seed
    return req


def analyze_game(initial_position: PositionLike, moves: Iterable[MoveLike], *, iterations: Optional[int],
                 threads: int, seed: Optional[int], played_visits: int, mistake: float, blunder: float,
                 request_id: str) -> pb.AnalyzeGameRequest:
    req = pb.AnalyzeGameRequest(request_id=request_id, initial_position=position(initial_position),
                                moves=[move(m) for m in moves], iterations=iterations or 0, threads=threads,
                                played_visits=played_visits, mistake=mistake, blunder=blunder)
    if seed is not None:
        req.seed = seed
    return req
