from splendor.v1 import position_pb2 as _position_pb2
from splendor.v1 import move_pb2 as _move_pb2
from splendor.v1 import catalog_pb2 as _catalog_pb2
from splendor.v1 import search_pb2 as _search_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union
from splendor.v1.position_pb2 import Tokens as Tokens
from splendor.v1.position_pb2 import Position as Position
from splendor.v1.position_pb2 import GameStatus as GameStatus
from splendor.v1.position_pb2 import BasePosition as BasePosition
from splendor.v1.position_pb2 import BoardRow as BoardRow
from splendor.v1.position_pb2 import Deck as Deck
from splendor.v1.position_pb2 import BaseSeat as BaseSeat
from splendor.v1.position_pb2 import ReservedCard as ReservedCard
from splendor.v1.position_pb2 import MarvelTokens as MarvelTokens
from splendor.v1.position_pb2 import MarvelPosition as MarvelPosition
from splendor.v1.position_pb2 import MarvelSeat as MarvelSeat
from splendor.v1.position_pb2 import DuelTokens as DuelTokens
from splendor.v1.position_pb2 import DuelPosition as DuelPosition
from splendor.v1.position_pb2 import DuelJoker as DuelJoker
from splendor.v1.position_pb2 import DuelSeat as DuelSeat
from splendor.v1.position_pb2 import Game as Game
from splendor.v1.move_pb2 import Move as Move
from splendor.v1.move_pb2 import BaseMove as BaseMove
from splendor.v1.move_pb2 import MarvelMove as MarvelMove
from splendor.v1.move_pb2 import DuelMove as DuelMove
from splendor.v1.catalog_pb2 import Card as Card
from splendor.v1.catalog_pb2 import Noble as Noble
from splendor.v1.catalog_pb2 import BaseCatalog as BaseCatalog
from splendor.v1.catalog_pb2 import MarvelCard as MarvelCard
from splendor.v1.catalog_pb2 import MarvelLocation as MarvelLocation
from splendor.v1.catalog_pb2 import MarvelCatalog as MarvelCatalog
from splendor.v1.catalog_pb2 import DuelCard as DuelCard
from splendor.v1.catalog_pb2 import DuelRoyal as DuelRoyal
from splendor.v1.catalog_pb2 import DuelCatalog as DuelCatalog
from splendor.v1.catalog_pb2 import Color as Color
from splendor.v1.catalog_pb2 import MarvelColor as MarvelColor
from splendor.v1.catalog_pb2 import DuelColor as DuelColor
from splendor.v1.catalog_pb2 import DuelAbility as DuelAbility
from splendor.v1.search_pb2 import SearchLimits as SearchLimits
from splendor.v1.search_pb2 import EffectiveOptions as EffectiveOptions
from splendor.v1.search_pb2 import Evaluator as Evaluator
from splendor.v1.search_pb2 import Reason as Reason
from splendor.v1.search_pb2 import Line as Line
from splendor.v1.search_pb2 import SearchStats as SearchStats
from splendor.v1.search_pb2 import Alternative as Alternative
from splendor.v1.search_pb2 import DecisionVerdict as DecisionVerdict
from splendor.v1.search_pb2 import SeatSummary as SeatSummary
from splendor.v1.search_pb2 import LevelEstimate as LevelEstimate
from splendor.v1.search_pb2 import GameAnalysisOptions as GameAnalysisOptions
from splendor.v1.search_pb2 import StopReason as StopReason
from splendor.v1.search_pb2 import Priority as Priority
from splendor.v1.search_pb2 import ReasonCode as ReasonCode
from splendor.v1.search_pb2 import Mark as Mark

DESCRIPTOR: _descriptor.FileDescriptor
GAME_UNSPECIFIED: _position_pb2.Game
GAME_BASE: _position_pb2.Game
GAME_DUEL: _position_pb2.Game
GAME_MARVEL: _position_pb2.Game
COLOR_UNSPECIFIED: _catalog_pb2.Color
COLOR_WHITE: _catalog_pb2.Color
COLOR_BLUE: _catalog_pb2.Color
COLOR_GREEN: _catalog_pb2.Color
COLOR_RED: _catalog_pb2.Color
COLOR_BLACK: _catalog_pb2.Color
COLOR_GOLD: _catalog_pb2.Color
MARVEL_COLOR_UNSPECIFIED: _catalog_pb2.MarvelColor
MARVEL_COLOR_YELLOW: _catalog_pb2.MarvelColor
MARVEL_COLOR_RED: _catalog_pb2.MarvelColor
MARVEL_COLOR_ORANGE: _catalog_pb2.MarvelColor
MARVEL_COLOR_BLUE: _catalog_pb2.MarvelColor
MARVEL_COLOR_PURPLE: _catalog_pb2.MarvelColor
DUEL_COLOR_UNSPECIFIED: _catalog_pb2.DuelColor
DUEL_COLOR_WHITE: _catalog_pb2.DuelColor
DUEL_COLOR_BLUE: _catalog_pb2.DuelColor
DUEL_COLOR_GREEN: _catalog_pb2.DuelColor
DUEL_COLOR_RED: _catalog_pb2.DuelColor
DUEL_COLOR_BLACK: _catalog_pb2.DuelColor
DUEL_COLOR_JOKER: _catalog_pb2.DuelColor
DUEL_COLOR_NONE: _catalog_pb2.DuelColor
DUEL_ABILITY_UNSPECIFIED: _catalog_pb2.DuelAbility
DUEL_ABILITY_EXTRA_TURN: _catalog_pb2.DuelAbility
DUEL_ABILITY_BONUS_WILD: _catalog_pb2.DuelAbility
DUEL_ABILITY_TAKE_TOKEN: _catalog_pb2.DuelAbility
DUEL_ABILITY_TAKE_PRIVILEGE: _catalog_pb2.DuelAbility
DUEL_ABILITY_STEAL_TOKEN: _catalog_pb2.DuelAbility
STOP_REASON_UNSPECIFIED: _search_pb2.StopReason
STOP_REASON_ITERATIONS: _search_pb2.StopReason
STOP_REASON_TIME: _search_pb2.StopReason
STOP_REASON_DEADLINE: _search_pb2.StopReason
STOP_REASON_CANCELLED: _search_pb2.StopReason
STOP_REASON_FORCED: _search_pb2.StopReason
PRIORITY_UNSPECIFIED: _search_pb2.Priority
PRIORITY_INTERACTIVE: _search_pb2.Priority
PRIORITY_BATCH: _search_pb2.Priority
REASON_CODE_UNSPECIFIED: _search_pb2.ReasonCode
REASON_CODE_WINS_GAME: _search_pb2.ReasonCode
REASON_CODE_LOSES_GAME: _search_pb2.ReasonCode
REASON_CODE_BLOCKS_OPPONENT_WIN: _search_pb2.ReasonCode
REASON_CODE_LETS_OPPONENT_WIN: _search_pb2.ReasonCode
REASON_CODE_TRIGGERS_END: _search_pb2.ReasonCode
REASON_CODE_COMPLETES_NOBLE: _search_pb2.ReasonCode
REASON_CODE_COMPLETES_LOCATION: _search_pb2.ReasonCode
REASON_CODE_TAKES_AVENGERS: _search_pb2.ReasonCode
REASON_CODE_GAINS_ROYAL: _search_pb2.ReasonCode
REASON_CODE_EXTRA_TURN: _search_pb2.ReasonCode
REASON_CODE_SCORES: _search_pb2.ReasonCode
REASON_CODE_COLOUR_POINTS: _search_pb2.ReasonCode
REASON_CODE_CROWNS: _search_pb2.ReasonCode
REASON_CODE_GAINS_TIME_STONE: _search_pb2.ReasonCode
REASON_CODE_COMPLETES_COLOURS: _search_pb2.ReasonCode
REASON_CODE_DENIES_CARD: _search_pb2.ReasonCode
REASON_CODE_OPPONENT_CAN_BUY: _search_pb2.ReasonCode
REASON_CODE_NEAR_NOBLE: _search_pb2.ReasonCode
REASON_CODE_NEAR_LOCATION: _search_pb2.ReasonCode
REASON_CODE_GIVES_PRIVILEGE: _search_pb2.ReasonCode
REASON_CODE_GAINS_PRIVILEGE: _search_pb2.ReasonCode
REASON_CODE_NEEDED_BONUS: _search_pb2.ReasonCode
REASON_CODE_TOWARD_CARD: _search_pb2.ReasonCode
REASON_CODE_CLOSER_TO_CARD: _search_pb2.ReasonCode
REASON_CODE_PLANS_BUY: _search_pb2.ReasonCode
REASON_CODE_PASSES_FREE_BUY: _search_pb2.ReasonCode
REASON_CODE_BETTER_BUY_PASSED: _search_pb2.ReasonCode
REASON_CODE_TAKES_LAST_TOKENS: _search_pb2.ReasonCode
REASON_CODE_OVER_TOKEN_LIMIT: _search_pb2.ReasonCode
REASON_CODE_RETURNS_LEAST_NEEDED: _search_pb2.ReasonCode
REASON_CODE_SEARCH_BEST: _search_pb2.ReasonCode
MARK_NONE: _search_pb2.Mark
MARK_MISTAKE: _search_pb2.Mark
MARK_BLUNDER: _search_pb2.Mark

class GetCatalogRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: _position_pb2.Game
    def __init__(self, game: _Optional[_Union[_position_pb2.Game, str]] = ...) -> None: ...

class GetCatalogResponse(_message.Message):
    __slots__ = ("game", "base", "duel", "marvel")
    GAME_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    DUEL_FIELD_NUMBER: _ClassVar[int]
    MARVEL_FIELD_NUMBER: _ClassVar[int]
    game: _position_pb2.Game
    base: _catalog_pb2.BaseCatalog
    duel: _catalog_pb2.DuelCatalog
    marvel: _catalog_pb2.MarvelCatalog
    def __init__(self, game: _Optional[_Union[_position_pb2.Game, str]] = ..., base: _Optional[_Union[_catalog_pb2.BaseCatalog, _Mapping]] = ..., duel: _Optional[_Union[_catalog_pb2.DuelCatalog, _Mapping]] = ..., marvel: _Optional[_Union[_catalog_pb2.MarvelCatalog, _Mapping]] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("request_id", "game", "players", "seed")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    game: _position_pb2.Game
    players: int
    seed: int
    def __init__(self, request_id: _Optional[str] = ..., game: _Optional[_Union[_position_pb2.Game, str]] = ..., players: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("request_id", "position", "seed", "status")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: _position_pb2.Position
    seed: int
    status: _position_pb2.GameStatus
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., seed: _Optional[int] = ..., status: _Optional[_Union[_position_pb2.GameStatus, _Mapping]] = ...) -> None: ...

class LegalActionsRequest(_message.Message):
    __slots__ = ("request_id", "position", "all_payments")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    ALL_PAYMENTS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: _position_pb2.Position
    all_payments: bool
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., all_payments: _Optional[bool] = ...) -> None: ...

class LegalActionsResponse(_message.Message):
    __slots__ = ("request_id", "moves", "status", "threats")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    THREATS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    moves: _containers.RepeatedCompositeFieldContainer[_move_pb2.Move]
    status: _position_pb2.GameStatus
    threats: _containers.RepeatedCompositeFieldContainer[SeatBuys]
    def __init__(self, request_id: _Optional[str] = ..., moves: _Optional[_Iterable[_Union[_move_pb2.Move, _Mapping]]] = ..., status: _Optional[_Union[_position_pb2.GameStatus, _Mapping]] = ..., threats: _Optional[_Iterable[_Union[SeatBuys, _Mapping]]] = ...) -> None: ...

class SeatBuys(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class ApplyActionsRequest(_message.Message):
    __slots__ = ("request_id", "position", "moves")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: _position_pb2.Position
    moves: _containers.RepeatedCompositeFieldContainer[_move_pb2.Move]
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[_move_pb2.Move, _Mapping]]] = ...) -> None: ...

class ApplyActionsResponse(_message.Message):
    __slots__ = ("request_id", "position", "applied", "status")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: _position_pb2.Position
    applied: _containers.RepeatedCompositeFieldContainer[_move_pb2.Move]
    status: _position_pb2.GameStatus
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., applied: _Optional[_Iterable[_Union[_move_pb2.Move, _Mapping]]] = ..., status: _Optional[_Union[_position_pb2.GameStatus, _Mapping]] = ...) -> None: ...

class GetMoveRequest(_message.Message):
    __slots__ = ("request_id", "position", "level", "limits", "threads", "seed", "temperature", "perfect_information", "lines", "turn_elapsed_ms", "priority")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    PERFECT_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    TURN_ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: _position_pb2.Position
    level: int
    limits: _search_pb2.SearchLimits
    threads: int
    seed: int
    temperature: float
    perfect_information: bool
    lines: int
    turn_elapsed_ms: int
    priority: _search_pb2.Priority
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., level: _Optional[int] = ..., limits: _Optional[_Union[_search_pb2.SearchLimits, _Mapping]] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., temperature: _Optional[float] = ..., perfect_information: _Optional[bool] = ..., lines: _Optional[int] = ..., turn_elapsed_ms: _Optional[int] = ..., priority: _Optional[_Union[_search_pb2.Priority, str]] = ...) -> None: ...

class GetMoveResponse(_message.Message):
    __slots__ = ("request_id", "moves", "searches", "turn_complete", "position", "status", "options", "incomplete_reason", "turn_elapsed_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    SEARCHES_FIELD_NUMBER: _ClassVar[int]
    TURN_COMPLETE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    INCOMPLETE_REASON_FIELD_NUMBER: _ClassVar[int]
    TURN_ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    moves: _containers.RepeatedCompositeFieldContainer[_move_pb2.Move]
    searches: _containers.RepeatedCompositeFieldContainer[_search_pb2.SearchStats]
    turn_complete: bool
    position: _position_pb2.Position
    status: _position_pb2.GameStatus
    options: _search_pb2.EffectiveOptions
    incomplete_reason: str
    turn_elapsed_ms: int
    def __init__(self, request_id: _Optional[str] = ..., moves: _Optional[_Iterable[_Union[_move_pb2.Move, _Mapping]]] = ..., searches: _Optional[_Iterable[_Union[_search_pb2.SearchStats, _Mapping]]] = ..., turn_complete: _Optional[bool] = ..., position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., status: _Optional[_Union[_position_pb2.GameStatus, _Mapping]] = ..., options: _Optional[_Union[_search_pb2.EffectiveOptions, _Mapping]] = ..., incomplete_reason: _Optional[str] = ..., turn_elapsed_ms: _Optional[int] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("request_id", "position", "limits", "threads", "seed", "lines", "candidates", "report_every_ms", "perfect_information", "priority")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    REPORT_EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    PERFECT_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: _position_pb2.Position
    limits: _search_pb2.SearchLimits
    threads: int
    seed: int
    lines: int
    candidates: _containers.RepeatedCompositeFieldContainer[_move_pb2.Move]
    report_every_ms: int
    perfect_information: bool
    priority: _search_pb2.Priority
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., limits: _Optional[_Union[_search_pb2.SearchLimits, _Mapping]] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., lines: _Optional[int] = ..., candidates: _Optional[_Iterable[_Union[_move_pb2.Move, _Mapping]]] = ..., report_every_ms: _Optional[int] = ..., perfect_information: _Optional[bool] = ..., priority: _Optional[_Union[_search_pb2.Priority, str]] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("request_id", "final", "stats", "options", "sequence")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    final: bool
    stats: _search_pb2.SearchStats
    options: _search_pb2.EffectiveOptions
    sequence: int
    def __init__(self, request_id: _Optional[str] = ..., final: _Optional[bool] = ..., stats: _Optional[_Union[_search_pb2.SearchStats, _Mapping]] = ..., options: _Optional[_Union[_search_pb2.EffectiveOptions, _Mapping]] = ..., sequence: _Optional[int] = ...) -> None: ...

class AnalyzeGameRequest(_message.Message):
    __slots__ = ("request_id", "initial_position", "moves", "iterations", "threads", "seed", "played_visits", "mistake", "blunder", "priority")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    INITIAL_POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VISITS_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_FIELD_NUMBER: _ClassVar[int]
    BLUNDER_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    initial_position: _position_pb2.Position
    moves: _containers.RepeatedCompositeFieldContainer[_move_pb2.Move]
    iterations: int
    threads: int
    seed: int
    played_visits: int
    mistake: float
    blunder: float
    priority: _search_pb2.Priority
    def __init__(self, request_id: _Optional[str] = ..., initial_position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[_move_pb2.Move, _Mapping]]] = ..., iterations: _Optional[int] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., played_visits: _Optional[int] = ..., mistake: _Optional[float] = ..., blunder: _Optional[float] = ..., priority: _Optional[_Union[_search_pb2.Priority, str]] = ...) -> None: ...

class AnalyzeGameResponse(_message.Message):
    __slots__ = ("request_id", "sequence", "final", "decision", "done", "total", "seats", "status", "options")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    sequence: int
    final: bool
    decision: _search_pb2.DecisionVerdict
    done: int
    total: int
    seats: _containers.RepeatedCompositeFieldContainer[_search_pb2.SeatSummary]
    status: _position_pb2.GameStatus
    options: _search_pb2.GameAnalysisOptions
    def __init__(self, request_id: _Optional[str] = ..., sequence: _Optional[int] = ..., final: _Optional[bool] = ..., decision: _Optional[_Union[_search_pb2.DecisionVerdict, _Mapping]] = ..., done: _Optional[int] = ..., total: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[_search_pb2.SeatSummary, _Mapping]]] = ..., status: _Optional[_Union[_position_pb2.GameStatus, _Mapping]] = ..., options: _Optional[_Union[_search_pb2.GameAnalysisOptions, _Mapping]] = ...) -> None: ...
