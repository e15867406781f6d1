"""Typed results of the client's calls (plain dataclasses over the response messages).

Positions stay ``splendor_pb2.Position`` messages (base, Duel or Marvel: ``game_of`` tells
which): pass them back to the next call as they are. Every result keeps its raw response
message in ``raw``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional, Type, Union

from splendor.v1 import splendor_pb2 as pb

STOP_REASONS = {
    pb.STOP_REASON_UNSPECIFIED: "running", pb.STOP_REASON_ITERATIONS: "iterations",
    pb.STOP_REASON_TIME: "time", pb.STOP_REASON_DEADLINE: "deadline", pb.STOP_REASON_CANCELLED: "cancelled",
    pb.STOP_REASON_FORCED: "forced",
}
COLORS = {pb.COLOR_WHITE: "white", pb.COLOR_BLUE: "blue", pb.COLOR_GREEN: "green", pb.COLOR_RED: "red",
          pb.COLOR_BLACK: "black", pb.COLOR_GOLD: "gold"}


def _enum_name(enum, value: int, prefix: str) -> str:
    """``KIND_RESERVE_DECK`` -> ``reserve_deck``: an enum value's name without its prefix."""
    try:
        return enum.Name(value)[len(prefix):].lower()
    except ValueError:
        return "unknown"


class Tokens(NamedTuple):
    white: int = 0
    blue: int = 0
    green: int = 0
    red: int = 0
    black: int = 0
    gold: int = 0

    @classmethod
    def from_pb(cls, msg: pb.Tokens) -> "Tokens":
        return cls(msg.white, msg.blue, msg.green, msg.red, msg.black, msg.gold)


class MarvelTokens(NamedTuple):
    yellow: int = 0
    red: int = 0
    orange: int = 0
    blue: int = 0
    purple: int = 0
    green: int = 0
    grey: int = 0

    @classmethod
    def from_pb(cls, msg: pb.MarvelTokens) -> "MarvelTokens":
        return cls(*(getattr(msg, f) for f in cls._fields))


class DuelTokens(NamedTuple):
    white: int = 0
    blue: int = 0
    green: int = 0
    red: int = 0
    black: int = 0
    pearl: int = 0
    gold: int = 0

    @classmethod
    def from_pb(cls, msg: pb.DuelTokens) -> "DuelTokens":
        return cls(*(getattr(msg, f) for f in cls._fields))


AnyTokens = Union[Tokens, DuelTokens, MarvelTokens]
_TOKENS: Dict[str, Union[Type[Tokens], Type[DuelTokens], Type[MarvelTokens]]] = {
    "base": Tokens, "duel": DuelTokens, "marvel": MarvelTokens}


def _opt(msg, name: str) -> Optional[int]:
    return getattr(msg, name) if name in msg.DESCRIPTOR.fields_by_name and msg.HasField(name) else None


@dataclass(frozen=True)
class Move:
    """A move of any game: its canonical notation and its structured form (the fields a
    game's structured move does not have are None, empty or 0)."""

    notation: str
    action_id: int
    kind: str  # the Kind enum's name in lower case: take, reserve, reserve_deck, buy, ...
    tokens: AnyTokens  # take: taken; buy: paid; return/discard/steal/joker: the one token
    card: Optional[int]  # reserve, buy
    level: int  # reserve_deck: the deck; reserve, buy: the card's level
    noble: Optional[int]  # base: noble
    game: str = "base"  # base, duel or marvel
    location: Optional[int] = None  # marvel: location
    royal: Optional[int] = None  # duel: royal
    cells: List[int] = field(default_factory=list)  # duel: privilege, take, gold, token (row * 5 + column)
    raw: Optional[pb.Move] = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return self.notation

    @classmethod
    def from_pb(cls, msg: pb.Move) -> "Move":
        game = msg.WhichOneof("structured") or "base"
        b = getattr(msg, game)
        kinds = _KINDS.get(game) or _kind_names(game, type(b).Kind)
        has = b.HasField
        # the one optional field each game's move has beside `card` (a move is decoded per line
        # and per PV step: this is the client's hottest path)
        extra = _EXTRA[game]
        extra_value = getattr(b, extra) if has(extra) else None
        return cls(
            notation=msg.notation, action_id=msg.action_id, kind=kinds.get(b.kind, "unknown"),
            tokens=_TOKENS[game].from_pb(b.tokens), card=b.card if has("card") else None, level=b.level,
            noble=extra_value if game == "base" else None, game=game,
            location=extra_value if game == "marvel" else None, royal=extra_value if game == "duel" else None,
            cells=list(b.cells) if game == "duel" else [], raw=msg,
        )


_EXTRA = {"base": "noble", "duel": "royal", "marvel": "location"}
_KINDS: Dict[str, Dict[int, str]] = {}


def _kind_names(game: str, enum) -> Dict[int, str]:
    """A game's move kinds by value, in lower case without the prefix (``_enum_name``), once."""
    _KINDS[game] = {v: _enum_name(enum, v, "KIND_") for v in enum.values()}
    return _KINDS[game]


@dataclass(frozen=True)
class Status:
    to_move: int  # -1 once the game is over
    game_over: bool
    returns: List[float]  # per seat: 1 win, 0 loss, shared wins split; 0s until over

    @classmethod
    def from_pb(cls, msg: pb.GameStatus) -> "Status":
        return cls(msg.to_move, msg.game_over, list(msg.returns))


def priority_name(value: int) -> str:
    names: Dict[int, str] = {pb.PRIORITY_INTERACTIVE: "interactive", pb.PRIORITY_BATCH: "batch"}
    return names.get(value, "")


@dataclass(frozen=True)
class Options:
    """What a search actually ran with (after the server's defaults and caps)."""

    iterations: int
    time_ms: int
    threads: int
    seed: int
    temperature: float
    level: int
    priority: str  # "interactive" or "batch": the search slots the call took ("" from an older server)

    @classmethod
    def from_pb(cls, msg: pb.EffectiveOptions) -> "Options":
        return cls(msg.limits.iterations, msg.limits.time_ms, msg.threads, msg.seed, msg.temperature, msg.level,
                   priority_name(msg.priority))


@dataclass(frozen=True)
class Reason:
    """Why a move is good or bad (docs/reasons.md): a code of the closed list, its English
    sentence, whether it speaks for the move, and the subjects it is about (None when unset)."""

    code: str  # "COMPLETES_NOBLE", ... (pb.ReasonCode without its prefix)
    text: str  # "completes noble 3 (+3 points)"
    good: bool  # for the move (it achieves this) or against it (it allows or gives this up)
    card: Optional[int] = None
    piece: Optional[int] = None  # a noble (base), royal card (Duel) or location (Marvel)
    seat: Optional[int] = None
    color: str = ""
    points: Optional[int] = None
    turns: Optional[int] = None
    count: Optional[int] = None
    move: Optional["Move"] = None  # a mistake's reasons: the move it is about

    @classmethod
    def from_pb(cls, msg: pb.Reason) -> "Reason":
        return cls(pb.ReasonCode.Name(msg.code).removeprefix("REASON_CODE_"), msg.text, msg.good,
                   _opt(msg, "card"), _opt(msg, "piece"), _opt(msg, "seat"), msg.color, _opt(msg, "points"),
                   _opt(msg, "turns"), _opt(msg, "count"), Move.from_pb(msg.move) if msg.HasField("move") else None)


@dataclass(frozen=True)
class Line:
    move: Move
    visits: int
    win_probability: float  # for the searching seat
    prior: float
    pv: List[Move]  # principal variation, this move first
    proven: Optional[float] = None  # the exact value when proven to end the game with it (1 a win, 0 a loss)
    proven_in: Optional[int] = None  # with a proven win: the seat's own moves still to come
    reasons: List[Reason] = field(default_factory=list)  # why (Analyze's final message): most important first

    @classmethod
    def from_pb(cls, msg: pb.Line) -> "Line":
        move = Move.from_pb(msg.move)
        pv = msg.pv
        # the variation starts with the line's move: decoded once
        first = [move] if len(pv) and pv[0].action_id == move.action_id and pv[0].notation == move.notation else []
        return cls(move, msg.visits, msg.win_probability, msg.prior,
                   first + [Move.from_pb(m) for m in pv[len(first):]], msg.proven if msg.HasField("proven") else None,
                   msg.proven_in if msg.HasField("proven_in") else None, [Reason.from_pb(r) for r in msg.reasons])


@dataclass(frozen=True)
class SearchStats:
    seat: int
    win_probability: List[float]  # per seat
    lines: List[Line]  # most visited first
    iterations: int
    nodes: int
    elapsed_seconds: float
    iterations_per_second: float
    tree_bytes: int
    node_limit_hit: bool
    stop_reason: str  # running, iterations, time, deadline, cancelled, forced (the only legal move: no search)

    @property
    def best(self) -> Optional[Move]:
        return self.lines[0].move if self.lines else None

    @classmethod
    def from_pb(cls, msg: pb.SearchStats) -> "SearchStats":
        return cls(msg.seat, list(msg.win_probability), [Line.from_pb(x) for x in msg.lines], msg.iterations,
                   msg.nodes, msg.elapsed_seconds, msg.iterations_per_second, msg.tree_bytes,
                   msg.node_limit_hit, STOP_REASONS.get(msg.stop_reason, "unknown"))


@dataclass(frozen=True)
class MoveResult:
    """GetMove: the AI's whole turn."""

    request_id: str
    moves: List[Move]
    searches: List[SearchStats]  # one per move
    turn_complete: bool
    position: Optional[pb.Position]  # after the moves; None if incomplete or the last move draws what the view lacks
    status: Optional[Status]
    options: Options
    incomplete_reason: str  # when not turn_complete: why the turn stopped
    turn_elapsed_ms: int  # the turn's time so far: pass it on to the call that finishes the turn
    raw: pb.GetMoveResponse = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, msg: pb.GetMoveResponse) -> "MoveResult":
        return cls(msg.request_id, [Move.from_pb(m) for m in msg.moves], [SearchStats.from_pb(s) for s in msg.searches],
                   msg.turn_complete, msg.position if msg.HasField("position") else None,
                   Status.from_pb(msg.status) if msg.HasField("status") else None, Options.from_pb(msg.options),
                   msg.incomplete_reason, msg.turn_elapsed_ms, msg)


@dataclass(frozen=True)
class AnalysisReport:
    """One message of Analyze: a progress report, or the final result (``final``)."""

    request_id: str
    final: bool
    sequence: int
    stats: SearchStats
    options: Options
    raw: pb.AnalyzeResponse = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, msg: pb.AnalyzeResponse) -> "AnalysisReport":
        return cls(msg.request_id, msg.final, msg.sequence, SearchStats.from_pb(msg.stats),
                   Options.from_pb(msg.options), msg)


MARKS = {pb.MARK_NONE: "", pb.MARK_MISTAKE: "mistake", pb.MARK_BLUNDER: "blunder"}


@dataclass(frozen=True)
class Alternative:
    move: Move
    visits: int
    win_probability: float  # for the mover

    @classmethod
    def from_pb(cls, msg: pb.Alternative) -> "Alternative":
        return cls(Move.from_pb(msg.move), msg.visits, msg.win_probability)


@dataclass(frozen=True)
class Verdict:
    """AnalyzeGame: the verdict on one decision, from its mover's view."""

    index: int  # the decision's number in the game's moves, from 0
    turn: int
    seat: int
    played: Move
    best: Move  # the engine's best move (most visited)
    played_value: float  # the played move's win probability for the mover, from the same search
    best_value: float
    drop: float  # best_value - played_value, at least 0
    mark: str  # "", "mistake" (?) or "blunder" (??)
    forced: bool  # only one legal move
    played_visits: int
    extra_visits: int  # of which forced by a search restricted to the played move
    top: List[Alternative]  # at most 3, in the order the search plays them
    win_probability: List[float]  # per seat, of the position
    reasons: List[Reason] = field(default_factory=list)  # why: a mistake's, or what the played move does

    @classmethod
    def from_pb(cls, msg: pb.DecisionVerdict) -> "Verdict":
        return cls(msg.index, msg.turn, msg.seat, Move.from_pb(msg.played), Move.from_pb(msg.best),
                   msg.played_value, msg.best_value, msg.drop, MARKS.get(msg.mark, "unknown"), msg.forced,
                   msg.played_visits, msg.extra_visits, [Alternative.from_pb(t) for t in msg.top],
                   list(msg.win_probability), [Reason.from_pb(r) for r in msg.reasons])


@dataclass(frozen=True)
class LevelEstimate:
    """The level a seat's decisions play like (docs/analysis.md, "Estimated level")."""

    level: float  # fractional, within the calibrated levels (1-10 in 2 players, 1-9 in 3 and 4)
    level_low: float  # its 80 % interval
    level_high: float
    elo: int  # the ladder's Elo at level (level 1 = 0)
    elo_low: int
    elo_high: int
    decisions: int  # the decisions it counted (those with a choice)
    calibrated_iterations: int  # the analysis budget the fit was measured at
    off_budget: bool  # analysed at another budget: only rough

    @classmethod
    def from_pb(cls, msg: pb.LevelEstimate) -> "LevelEstimate":
        return cls(msg.level, msg.level_low, msg.level_high, msg.elo, msg.elo_low, msg.elo_high, msg.decisions,
                   msg.calibrated_iterations, msg.off_budget)

    def __str__(self) -> str:
        text = (f"plays like level {self.level:.1f} ({self.level_low:.1f}-{self.level_high:.1f}), "
                f"about {self.elo:+d} Elo ({self.elo_low:+d}..{self.elo_high:+d})")
        return text + (" [rough: analysed at another budget than the fit's]" if self.off_budget else "")


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int  # with a choice
    forced: int
    accuracy: float  # e^-(given_away): a whole game's figure, read loss_per_decision and estimate instead
    mistakes: int
    blunders: int
    mean_drop: float
    agreed: int  # decisions where the seat played the engine's best move
    loss_per_decision: float = 0.0  # win probability given away a decision, in points: lower is better
    given_away: float = 0.0  # the drops summed: the share of a win its moves gave away
    estimate: Optional[LevelEstimate] = None  # None without a fit for the game or a decision with a choice

    @classmethod
    def from_pb(cls, msg: pb.SeatSummary) -> "SeatSummary":
        return cls(msg.seat, msg.decisions, msg.forced, msg.accuracy, msg.mistakes, msg.blunders, msg.mean_drop,
                   msg.agreed, msg.loss_per_decision, msg.given_away,
                   LevelEstimate.from_pb(msg.estimate) if msg.HasField("estimate") else None)


@dataclass(frozen=True)
class GameAnalysisOptions:
    iterations: int
    threads: int
    seed: int
    played_visits: int
    mistake: float
    blunder: float
    priority: str  # always "batch" ("" from an older server)

    @classmethod
    def from_pb(cls, msg: pb.GameAnalysisOptions) -> "GameAnalysisOptions":
        return cls(msg.iterations, msg.threads, msg.seed, msg.played_visits, msg.mistake, msg.blunder,
                   priority_name(msg.priority))


@dataclass(frozen=True)
class GameAnalysisReport:
    """One message of AnalyzeGame: a decision's verdict, or the final summary (``final``)."""

    request_id: str
    final: bool
    sequence: int
    done: int  # decisions analysed so far
    total: int  # decisions in the game
    decision: Optional[Verdict]  # None on the final message
    seats: List[SeatSummary]  # final only
    status: Optional[Status]  # final only: the position after the last move
    options: GameAnalysisOptions
    raw: pb.AnalyzeGameResponse = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, msg: pb.AnalyzeGameResponse) -> "GameAnalysisReport":
        return cls(msg.request_id, msg.final, msg.sequence, msg.done, msg.total,
                   Verdict.from_pb(msg.decision) if msg.HasField("decision") else None,
                   [SeatSummary.from_pb(s) for s in msg.seats],
                   Status.from_pb(msg.status) if msg.HasField("status") else None,
                   GameAnalysisOptions.from_pb(msg.options), msg)


@dataclass(frozen=True)
class Applied:
    """ApplyActions: the new position and the moves played (canonical)."""

    request_id: str
    position: pb.Position
    moves: List[Move]
    status: Status
    raw: pb.ApplyActionsResponse = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, msg: pb.ApplyActionsResponse) -> "Applied":
        return cls(msg.request_id, msg.position, [Move.from_pb(m) for m in msg.applied], Status.from_pb(msg.status),
                   msg)


@dataclass(frozen=True)
class LegalMoves:
    """LegalActions: the legal moves of the seat to act."""

    request_id: str
    moves: List[Move]
    status: Status
    raw: pb.LegalActionsResponse = field(repr=False, compare=False)
    # seat -> the cards it could buy on its next turn if the board and its tokens stayed as they
    # are (every seat but the one to act; docs/protocol.md, SeatBuys); {} from an older server
    threats: Dict[int, List[int]] = field(default_factory=dict)

    @property
    def notations(self) -> List[str]:
        return [m.notation for m in self.moves]

    @classmethod
    def from_pb(cls, msg: pb.LegalActionsResponse) -> "LegalMoves":
        return cls(msg.request_id, [Move.from_pb(m) for m in msg.moves], Status.from_pb(msg.status), msg,
                   {t.seat: list(t.cards) for t in msg.threats})


def game_of(position: pb.Position) -> str:
    """The game of a Position message: base, duel or marvel."""
    return position.WhichOneof("game") or "base"


@dataclass(frozen=True)
class NewGame:
    request_id: str
    position: pb.Position  # full: deck order included
    seed: int
    status: Status
    raw: pb.NewGameResponse = field(repr=False, compare=False)

    @property
    def game(self) -> str:
        return game_of(self.position)

    @classmethod
    def from_pb(cls, msg: pb.NewGameResponse) -> "NewGame":
        return cls(msg.request_id, msg.position, msg.seed, Status.from_pb(msg.status), msg)


@dataclass(frozen=True)
class Card:
    id: int
    level: int
    color: str
    points: int
    cost: Tokens


@dataclass(frozen=True)
class Noble:
    id: int
    points: int
    requires: Tokens


@dataclass(frozen=True)
class MarvelCard:
    id: int
    name: str
    level: int
    color: str  # yellow, red, orange, blue, purple
    points: int
    avengers: int  # Avengers icons
    time_stone: bool
    cost: MarvelTokens


@dataclass(frozen=True)
class MarvelLocation:
    id: int
    name: str
    tile: int
    side: str  # A or B
    points: int
    requires: MarvelTokens


@dataclass(frozen=True)
class DuelCard:
    id: int
    level: int
    color: str  # white, blue, green, red, black, joker, none
    points: int
    crowns: int
    bonus: int
    abilities: List[str]  # extra_turn, bonus_wild, take_token, take_privilege, steal_token
    cost: DuelTokens


@dataclass(frozen=True)
class DuelRoyal:
    id: int
    points: int
    abilities: List[str]


def _abilities(values) -> List[str]:
    return [_enum_name(pb.DuelAbility, v, "DUEL_ABILITY_") for v in values]


@dataclass(frozen=True)
class Catalog:
    """A game's catalogue; the lists a game does not have are empty."""

    game: str
    cards: List[Union[Card, DuelCard, MarvelCard]]  # index = id
    nobles: List[Noble]  # base; index = id
    raw: pb.GetCatalogResponse = field(repr=False, compare=False)
    locations: List[MarvelLocation] = field(default_factory=list)  # marvel; index = id
    royals: List[DuelRoyal] = field(default_factory=list)  # duel; index = id
    spiral: List[str] = field(default_factory=list)  # duel: the cells a replenish fills, in order

    @classmethod
    def from_pb(cls, msg: pb.GetCatalogResponse) -> "Catalog":
        game = pb.Game.Name(msg.game)[len("GAME_"):].lower()
        which = msg.WhichOneof("catalog")
        if which == "marvel":
            m = msg.marvel
            return cls(game, [MarvelCard(c.id, c.name, c.level, _enum_name(pb.MarvelColor, c.color, "MARVEL_COLOR_"),
                                         c.points, c.avengers, c.time_stone, MarvelTokens.from_pb(c.cost))
                              for c in m.cards], [], msg,
                       locations=[MarvelLocation(x.id, x.name, x.tile, x.side, x.points,
                                                 MarvelTokens.from_pb(x.requires)) for x in m.locations])
        if which == "duel":
            d = msg.duel
            return cls(game, [DuelCard(c.id, c.level, _enum_name(pb.DuelColor, c.color, "DUEL_COLOR_"), c.points,
                                       c.crowns, c.bonus, _abilities(c.abilities), DuelTokens.from_pb(c.cost))
                              for c in d.cards], [], msg,
                       royals=[DuelRoyal(r.id, r.points, _abilities(r.abilities)) for r in d.royals],
                       spiral=list(d.spiral))
        b = msg.base
        return cls(
            game,
            [Card(c.id, c.level, COLORS.get(c.color, "unknown"), c.points, Tokens.from_pb(c.cost)) for c in b.cards],
            [Noble(n.id, n.points, Tokens.from_pb(n.requires)) for n in b.nobles],
            msg,
        )
