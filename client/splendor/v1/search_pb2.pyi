from splendor.v1 import move_pb2 as _move_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StopReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STOP_REASON_UNSPECIFIED: _ClassVar[StopReason]
    STOP_REASON_ITERATIONS: _ClassVar[StopReason]
    STOP_REASON_TIME: _ClassVar[StopReason]
    STOP_REASON_DEADLINE: _ClassVar[StopReason]
    STOP_REASON_CANCELLED: _ClassVar[StopReason]
    STOP_REASON_FORCED: _ClassVar[StopReason]

class Priority(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRIORITY_UNSPECIFIED: _ClassVar[Priority]
    PRIORITY_INTERACTIVE: _ClassVar[Priority]
    PRIORITY_BATCH: _ClassVar[Priority]

class ReasonCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REASON_CODE_UNSPECIFIED: _ClassVar[ReasonCode]
    REASON_CODE_WINS_GAME: _ClassVar[ReasonCode]
    REASON_CODE_LOSES_GAME: _ClassVar[ReasonCode]
    REASON_CODE_BLOCKS_OPPONENT_WIN: _ClassVar[ReasonCode]
    REASON_CODE_LETS_OPPONENT_WIN: _ClassVar[ReasonCode]
    REASON_CODE_TRIGGERS_END: _ClassVar[ReasonCode]
    REASON_CODE_COMPLETES_NOBLE: _ClassVar[ReasonCode]
    REASON_CODE_COMPLETES_LOCATION: _ClassVar[ReasonCode]
    REASON_CODE_TAKES_AVENGERS: _ClassVar[ReasonCode]
    REASON_CODE_GAINS_ROYAL: _ClassVar[ReasonCode]
    REASON_CODE_EXTRA_TURN: _ClassVar[ReasonCode]
    REASON_CODE_SCORES: _ClassVar[ReasonCode]
    REASON_CODE_COLOUR_POINTS: _ClassVar[ReasonCode]
    REASON_CODE_CROWNS: _ClassVar[ReasonCode]
    REASON_CODE_GAINS_TIME_STONE: _ClassVar[ReasonCode]
    REASON_CODE_COMPLETES_COLOURS: _ClassVar[ReasonCode]
    REASON_CODE_DENIES_CARD: _ClassVar[ReasonCode]
    REASON_CODE_OPPONENT_CAN_BUY: _ClassVar[ReasonCode]
    REASON_CODE_NEAR_NOBLE: _ClassVar[ReasonCode]
    REASON_CODE_NEAR_LOCATION: _ClassVar[ReasonCode]
    REASON_CODE_GIVES_PRIVILEGE: _ClassVar[ReasonCode]
    REASON_CODE_GAINS_PRIVILEGE: _ClassVar[ReasonCode]
    REASON_CODE_NEEDED_BONUS: _ClassVar[ReasonCode]
    REASON_CODE_TOWARD_CARD: _ClassVar[ReasonCode]
    REASON_CODE_CLOSER_TO_CARD: _ClassVar[ReasonCode]
    REASON_CODE_PLANS_BUY: _ClassVar[ReasonCode]
    REASON_CODE_PASSES_FREE_BUY: _ClassVar[ReasonCode]
    REASON_CODE_BETTER_BUY_PASSED: _ClassVar[ReasonCode]
    REASON_CODE_TAKES_LAST_TOKENS: _ClassVar[ReasonCode]
    REASON_CODE_OVER_TOKEN_LIMIT: _ClassVar[ReasonCode]
    REASON_CODE_RETURNS_LEAST_NEEDED: _ClassVar[ReasonCode]
    REASON_CODE_SEARCH_BEST: _ClassVar[ReasonCode]

class Mark(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MARK_NONE: _ClassVar[Mark]
    MARK_MISTAKE: _ClassVar[Mark]
    MARK_BLUNDER: _ClassVar[Mark]
STOP_REASON_UNSPECIFIED: StopReason
STOP_REASON_ITERATIONS: StopReason
STOP_REASON_TIME: StopReason
STOP_REASON_DEADLINE: StopReason
STOP_REASON_CANCELLED: StopReason
STOP_REASON_FORCED: StopReason
PRIORITY_UNSPECIFIED: Priority
PRIORITY_INTERACTIVE: Priority
PRIORITY_BATCH: Priority
REASON_CODE_UNSPECIFIED: ReasonCode
REASON_CODE_WINS_GAME: ReasonCode
REASON_CODE_LOSES_GAME: ReasonCode
REASON_CODE_BLOCKS_OPPONENT_WIN: ReasonCode
REASON_CODE_LETS_OPPONENT_WIN: ReasonCode
REASON_CODE_TRIGGERS_END: ReasonCode
REASON_CODE_COMPLETES_NOBLE: ReasonCode
REASON_CODE_COMPLETES_LOCATION: ReasonCode
REASON_CODE_TAKES_AVENGERS: ReasonCode
REASON_CODE_GAINS_ROYAL: ReasonCode
REASON_CODE_EXTRA_TURN: ReasonCode
REASON_CODE_SCORES: ReasonCode
REASON_CODE_COLOUR_POINTS: ReasonCode
REASON_CODE_CROWNS: ReasonCode
REASON_CODE_GAINS_TIME_STONE: ReasonCode
REASON_CODE_COMPLETES_COLOURS: ReasonCode
REASON_CODE_DENIES_CARD: ReasonCode
REASON_CODE_OPPONENT_CAN_BUY: ReasonCode
REASON_CODE_NEAR_NOBLE: ReasonCode
REASON_CODE_NEAR_LOCATION: ReasonCode
REASON_CODE_GIVES_PRIVILEGE: ReasonCode
REASON_CODE_GAINS_PRIVILEGE: ReasonCode
REASON_CODE_NEEDED_BONUS: ReasonCode
REASON_CODE_TOWARD_CARD: ReasonCode
REASON_CODE_CLOSER_TO_CARD: ReasonCode
REASON_CODE_PLANS_BUY: ReasonCode
REASON_CODE_PASSES_FREE_BUY: ReasonCode
REASON_CODE_BETTER_BUY_PASSED: ReasonCode
REASON_CODE_TAKES_LAST_TOKENS: ReasonCode
REASON_CODE_OVER_TOKEN_LIMIT: ReasonCode
REASON_CODE_RETURNS_LEAST_NEEDED: ReasonCode
REASON_CODE_SEARCH_BEST: ReasonCode
MARK_NONE: Mark
MARK_MISTAKE: Mark
MARK_BLUNDER: Mark

class SearchLimits(_message.Message):
    __slots__ = ("iterations", "time_ms")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    time_ms: int
    def __init__(self, iterations: _Optional[int] = ..., time_ms: _Optional[int] = ...) -> None: ...

class EffectiveOptions(_message.Message):
    __slots__ = ("limits", "threads", "seed", "temperature", "level", "evaluator", "priority")
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    limits: SearchLimits
    threads: int
    seed: int
    temperature: float
    level: int
    evaluator: Evaluator
    priority: Priority
    def __init__(self, limits: _Optional[_Union[SearchLimits, _Mapping]] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., temperature: _Optional[float] = ..., level: _Optional[int] = ..., evaluator: _Optional[_Union[Evaluator, _Mapping]] = ..., priority: _Optional[_Union[Priority, str]] = ...) -> None: ...

class Evaluator(_message.Message):
    __slots__ = ("kind", "net", "checksum")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NET_FIELD_NUMBER: _ClassVar[int]
    CHECKSUM_FIELD_NUMBER: _ClassVar[int]
    kind: str
    net: str
    checksum: str
    def __init__(self, kind: _Optional[str] = ..., net: _Optional[str] = ..., checksum: _Optional[str] = ...) -> None: ...

class Reason(_message.Message):
    __slots__ = ("code", "text", "good", "card", "piece", "seat", "color", "points", "turns", "count", "move")
    CODE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PIECE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    code: ReasonCode
    text: str
    good: bool
    card: int
    piece: int
    seat: int
    color: str
    points: int
    turns: int
    count: int
    move: _move_pb2.Move
    def __init__(self, code: _Optional[_Union[ReasonCode, str]] = ..., text: _Optional[str] = ..., good: _Optional[bool] = ..., card: _Optional[int] = ..., piece: _Optional[int] = ..., seat: _Optional[int] = ..., color: _Optional[str] = ..., points: _Optional[int] = ..., turns: _Optional[int] = ..., count: _Optional[int] = ..., move: _Optional[_Union[_move_pb2.Move, _Mapping]] = ...) -> None: ...

class Line(_message.Message):
    __slots__ = ("move", "visits", "win_probability", "prior", "pv", "proven", "proven_in", "reasons")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    PRIOR_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    PROVEN_FIELD_NUMBER: _ClassVar[int]
    PROVEN_IN_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    move: _move_pb2.Move
    visits: int
    win_probability: float
    prior: float
    pv: _containers.RepeatedCompositeFieldContainer[_move_pb2.Move]
    proven: float
    proven_in: int
    reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    def __init__(self, move: _Optional[_Union[_move_pb2.Move, _Mapping]] = ..., visits: _Optional[int] = ..., win_probability: _Optional[float] = ..., prior: _Optional[float] = ..., pv: _Optional[_Iterable[_Union[_move_pb2.Move, _Mapping]]] = ..., proven: _Optional[float] = ..., proven_in: _Optional[int] = ..., reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ...) -> None: ...

class SearchStats(_message.Message):
    __slots__ = ("seat", "win_probability", "lines", "iterations", "nodes", "elapsed_seconds", "iterations_per_second", "tree_bytes", "node_limit_hit", "stop_reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    TREE_BYTES_FIELD_NUMBER: _ClassVar[int]
    NODE_LIMIT_HIT_FIELD_NUMBER: _ClassVar[int]
    STOP_REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    win_probability: _containers.RepeatedScalarFieldContainer[float]
    lines: _containers.RepeatedCompositeFieldContainer[Line]
    iterations: int
    nodes: int
    elapsed_seconds: float
    iterations_per_second: float
    tree_bytes: int
    node_limit_hit: bool
    stop_reason: StopReason
    def __init__(self, seat: _Optional[int] = ..., win_probability: _Optional[_Iterable[float]] = ..., lines: _Optional[_Iterable[_Union[Line, _Mapping]]] = ..., iterations: _Optional[int] = ..., nodes: _Optional[int] = ..., elapsed_seconds: _Optional[float] = ..., iterations_per_second: _Optional[float] = ..., tree_bytes: _Optional[int] = ..., node_limit_hit: _Optional[bool] = ..., stop_reason: _Optional[_Union[StopReason, str]] = ...) -> None: ...

class Alternative(_message.Message):
    __slots__ = ("move", "visits", "win_probability")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    move: _move_pb2.Move
    visits: int
    win_probability: float
    def __init__(self, move: _Optional[_Union[_move_pb2.Move, _Mapping]] = ..., visits: _Optional[int] = ..., win_probability: _Optional[float] = ...) -> None: ...

class DecisionVerdict(_message.Message):
    __slots__ = ("index", "turn", "seat", "played", "best", "played_value", "best_value", "drop", "mark", "forced", "played_visits", "extra_visits", "top", "win_probability", "reasons")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VALUE_FIELD_NUMBER: _ClassVar[int]
    BEST_VALUE_FIELD_NUMBER: _ClassVar[int]
    DROP_FIELD_NUMBER: _ClassVar[int]
    MARK_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VISITS_FIELD_NUMBER: _ClassVar[int]
    EXTRA_VISITS_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    index: int
    turn: int
    seat: int
    played: _move_pb2.Move
    best: _move_pb2.Move
    played_value: float
    best_value: float
    drop: float
    mark: Mark
    forced: bool
    played_visits: int
    extra_visits: int
    top: _containers.RepeatedCompositeFieldContainer[Alternative]
    win_probability: _containers.RepeatedScalarFieldContainer[float]
    reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    def __init__(self, index: _Optional[int] = ..., turn: _Optional[int] = ..., seat: _Optional[int] = ..., played: _Optional[_Union[_move_pb2.Move, _Mapping]] = ..., best: _Optional[_Union[_move_pb2.Move, _Mapping]] = ..., played_value: _Optional[float] = ..., best_value: _Optional[float] = ..., drop: _Optional[float] = ..., mark: _Optional[_Union[Mark, str]] = ..., forced: _Optional[bool] = ..., played_visits: _Optional[int] = ..., extra_visits: _Optional[int] = ..., top: _Optional[_Iterable[_Union[Alternative, _Mapping]]] = ..., win_probability: _Optional[_Iterable[float]] = ..., reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ...) -> None: ...

class SeatSummary(_message.Message):
    __slots__ = ("seat", "decisions", "forced", "accuracy", "mistakes", "blunders", "mean_drop", "agreed", "loss_per_decision", "given_away", "estimate")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_FIELD_NUMBER: _ClassVar[int]
    MISTAKES_FIELD_NUMBER: _ClassVar[int]
    BLUNDERS_FIELD_NUMBER: _ClassVar[int]
    MEAN_DROP_FIELD_NUMBER: _ClassVar[int]
    AGREED_FIELD_NUMBER: _ClassVar[int]
    LOSS_PER_DECISION_FIELD_NUMBER: _ClassVar[int]
    GIVEN_AWAY_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    decisions: int
    forced: int
    accuracy: float
    mistakes: int
    blunders: int
    mean_drop: float
    agreed: int
    loss_per_decision: float
    given_away: float
    estimate: LevelEstimate
    def __init__(self, seat: _Optional[int] = ..., decisions: _Optional[int] = ..., forced: _Optional[int] = ..., accuracy: _Optional[float] = ..., mistakes: _Optional[int] = ..., blunders: _Optional[int] = ..., mean_drop: _Optional[float] = ..., agreed: _Optional[int] = ..., loss_per_decision: _Optional[float] = ..., given_away: _Optional[float] = ..., estimate: _Optional[_Union[LevelEstimate, _Mapping]] = ...) -> None: ...

class LevelEstimate(_message.Message):
    __slots__ = ("level", "level_low", "level_high", "elo", "elo_low", "elo_high", "decisions", "calibrated_iterations", "off_budget")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    LEVEL_LOW_FIELD_NUMBER: _ClassVar[int]
    LEVEL_HIGH_FIELD_NUMBER: _ClassVar[int]
    ELO_FIELD_NUMBER: _ClassVar[int]
    ELO_LOW_FIELD_NUMBER: _ClassVar[int]
    ELO_HIGH_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    CALIBRATED_ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    OFF_BUDGET_FIELD_NUMBER: _ClassVar[int]
    level: float
    level_low: float
    level_high: float
    elo: int
    elo_low: int
    elo_high: int
    decisions: int
    calibrated_iterations: int
    off_budget: bool
    def __init__(self, level: _Optional[float] = ..., level_low: _Optional[float] = ..., level_high: _Optional[float] = ..., elo: _Optional[int] = ..., elo_low: _Optional[int] = ..., elo_high: _Optional[int] = ..., decisions: _Optional[int] = ..., calibrated_iterations: _Optional[int] = ..., off_budget: _Optional[bool] = ...) -> None: ...

class GameAnalysisOptions(_message.Message):
    __slots__ = ("iterations", "threads", "seed", "played_visits", "mistake", "blunder", "evaluator", "priority")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VISITS_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_FIELD_NUMBER: _ClassVar[int]
    BLUNDER_FIELD_NUMBER: _ClassVar[int]
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    threads: int
    seed: int
    played_visits: int
    mistake: float
    blunder: float
    evaluator: Evaluator
    priority: Priority
    def __init__(self, iterations: _Optional[int] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., played_visits: _Optional[int] = ..., mistake: _Optional[float] = ..., blunder: _Optional[float] = ..., evaluator: _Optional[_Union[Evaluator, _Mapping]] = ..., priority: _Optional[_Union[Priority, str]] = ...) -> None: ...
