from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Game(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_UNSPECIFIED: _ClassVar[Game]
    GAME_BASE: _ClassVar[Game]
    GAME_DUEL: _ClassVar[Game]
    GAME_MARVEL: _ClassVar[Game]

class StopReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STOP_REASON_UNSPECIFIED: _ClassVar[StopReason]
    STOP_REASON_ITERATIONS: _ClassVar[StopReason]
    STOP_REASON_TIME: _ClassVar[StopReason]
    STOP_REASON_DEADLINE: _ClassVar[StopReason]
    STOP_REASON_CANCELLED: _ClassVar[StopReason]
    STOP_REASON_FORCED: _ClassVar[StopReason]

class Color(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COLOR_UNSPECIFIED: _ClassVar[Color]
    COLOR_WHITE: _ClassVar[Color]
    COLOR_BLUE: _ClassVar[Color]
    COLOR_GREEN: _ClassVar[Color]
    COLOR_RED: _ClassVar[Color]
    COLOR_BLACK: _ClassVar[Color]
    COLOR_GOLD: _ClassVar[Color]

class MarvelColor(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MARVEL_COLOR_UNSPECIFIED: _ClassVar[MarvelColor]
    MARVEL_COLOR_YELLOW: _ClassVar[MarvelColor]
    MARVEL_COLOR_RED: _ClassVar[MarvelColor]
    MARVEL_COLOR_ORANGE: _ClassVar[MarvelColor]
    MARVEL_COLOR_BLUE: _ClassVar[MarvelColor]
    MARVEL_COLOR_PURPLE: _ClassVar[MarvelColor]

class DuelColor(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DUEL_COLOR_UNSPECIFIED: _ClassVar[DuelColor]
    DUEL_COLOR_WHITE: _ClassVar[DuelColor]
    DUEL_COLOR_BLUE: _ClassVar[DuelColor]
    DUEL_COLOR_GREEN: _ClassVar[DuelColor]
    DUEL_COLOR_RED: _ClassVar[DuelColor]
    DUEL_COLOR_BLACK: _ClassVar[DuelColor]
    DUEL_COLOR_JOKER: _ClassVar[DuelColor]
    DUEL_COLOR_NONE: _ClassVar[DuelColor]

class DuelAbility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DUEL_ABILITY_UNSPECIFIED: _ClassVar[DuelAbility]
    DUEL_ABILITY_EXTRA_TURN: _ClassVar[DuelAbility]
    DUEL_ABILITY_BONUS_WILD: _ClassVar[DuelAbility]
    DUEL_ABILITY_TAKE_TOKEN: _ClassVar[DuelAbility]
    DUEL_ABILITY_TAKE_PRIVILEGE: _ClassVar[DuelAbility]
    DUEL_ABILITY_STEAL_TOKEN: _ClassVar[DuelAbility]

class Mark(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MARK_NONE: _ClassVar[Mark]
    MARK_MISTAKE: _ClassVar[Mark]
    MARK_BLUNDER: _ClassVar[Mark]
GAME_UNSPECIFIED: Game
GAME_BASE: Game
GAME_DUEL: Game
GAME_MARVEL: Game
STOP_REASON_UNSPECIFIED: StopReason
STOP_REASON_ITERATIONS: StopReason
STOP_REASON_TIME: StopReason
STOP_REASON_DEADLINE: StopReason
STOP_REASON_CANCELLED: StopReason
STOP_REASON_FORCED: StopReason
COLOR_UNSPECIFIED: Color
COLOR_WHITE: Color
COLOR_BLUE: Color
COLOR_GREEN: Color
COLOR_RED: Color
COLOR_BLACK: Color
COLOR_GOLD: Color
MARVEL_COLOR_UNSPECIFIED: MarvelColor
MARVEL_COLOR_YELLOW: MarvelColor
MARVEL_COLOR_RED: MarvelColor
MARVEL_COLOR_ORANGE: MarvelColor
MARVEL_COLOR_BLUE: MarvelColor
MARVEL_COLOR_PURPLE: MarvelColor
DUEL_COLOR_UNSPECIFIED: DuelColor
DUEL_COLOR_WHITE: DuelColor
DUEL_COLOR_BLUE: DuelColor
DUEL_COLOR_GREEN: DuelColor
DUEL_COLOR_RED: DuelColor
DUEL_COLOR_BLACK: DuelColor
DUEL_COLOR_JOKER: DuelColor
DUEL_COLOR_NONE: DuelColor
DUEL_ABILITY_UNSPECIFIED: DuelAbility
DUEL_ABILITY_EXTRA_TURN: DuelAbility
DUEL_ABILITY_BONUS_WILD: DuelAbility
DUEL_ABILITY_TAKE_TOKEN: DuelAbility
DUEL_ABILITY_TAKE_PRIVILEGE: DuelAbility
DUEL_ABILITY_STEAL_TOKEN: DuelAbility
MARK_NONE: Mark
MARK_MISTAKE: Mark
MARK_BLUNDER: Mark

class Tokens(_message.Message):
    __slots__ = ("white", "blue", "green", "red", "black", "gold")
    WHITE_FIELD_NUMBER: _ClassVar[int]
    BLUE_FIELD_NUMBER: _ClassVar[int]
    GREEN_FIELD_NUMBER: _ClassVar[int]
    RED_FIELD_NUMBER: _ClassVar[int]
    BLACK_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    white: int
    blue: int
    green: int
    red: int
    black: int
    gold: int
    def __init__(self, white: _Optional[int] = ..., blue: _Optional[int] = ..., green: _Optional[int] = ..., red: _Optional[int] = ..., black: _Optional[int] = ..., gold: _Optional[int] = ...) -> None: ...

class Position(_message.Message):
    __slots__ = ("base", "duel", "marvel")
    BASE_FIELD_NUMBER: _ClassVar[int]
    DUEL_FIELD_NUMBER: _ClassVar[int]
    MARVEL_FIELD_NUMBER: _ClassVar[int]
    base: BasePosition
    duel: DuelPosition
    marvel: MarvelPosition
    def __init__(self, base: _Optional[_Union[BasePosition, _Mapping]] = ..., duel: _Optional[_Union[DuelPosition, _Mapping]] = ..., marvel: _Optional[_Union[MarvelPosition, _Mapping]] = ...) -> None: ...

class GameStatus(_message.Message):
    __slots__ = ("to_move", "game_over", "returns")
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    to_move: int
    game_over: bool
    returns: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, to_move: _Optional[int] = ..., game_over: _Optional[bool] = ..., returns: _Optional[_Iterable[float]] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("notation", "action_id", "drawn_card", "base", "duel", "marvel", "drawn_tokens")
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    DRAWN_CARD_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    DUEL_FIELD_NUMBER: _ClassVar[int]
    MARVEL_FIELD_NUMBER: _ClassVar[int]
    DRAWN_TOKENS_FIELD_NUMBER: _ClassVar[int]
    notation: str
    action_id: int
    drawn_card: int
    base: BaseMove
    duel: DuelMove
    marvel: MarvelMove
    drawn_tokens: str
    def __init__(self, notation: _Optional[str] = ..., action_id: _Optional[int] = ..., drawn_card: _Optional[int] = ..., base: _Optional[_Union[BaseMove, _Mapping]] = ..., duel: _Optional[_Union[DuelMove, _Mapping]] = ..., marvel: _Optional[_Union[MarvelMove, _Mapping]] = ..., drawn_tokens: _Optional[str] = ...) -> None: ...

class SearchLimits(_message.Message):
    __slots__ = ("iterations", "time_ms")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    time_ms: int
    def __init__(self, iterations: _Optional[int] = ..., time_ms: _Optional[int] = ...) -> None: ...

class EffectiveOptions(_message.Message):
    __slots__ = ("limits", "threads", "seed", "temperature", "level")
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    limits: SearchLimits
    threads: int
    seed: int
    temperature: float
    level: int
    def __init__(self, limits: _Optional[_Union[SearchLimits, _Mapping]] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., temperature: _Optional[float] = ..., level: _Optional[int] = ...) -> None: ...

class Line(_message.Message):
    __slots__ = ("move", "visits", "win_probability", "prior", "pv")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    PRIOR_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    move: Move
    visits: int
    win_probability: float
    prior: float
    pv: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., visits: _Optional[int] = ..., win_probability: _Optional[float] = ..., prior: _Optional[float] = ..., pv: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

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

class BasePosition(_message.Message):
    __slots__ = ("players", "start_seat", "current", "phase", "turn", "final_round", "passes", "supply", "board", "decks", "deck_sizes", "nobles", "seats", "observer")
    class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PHASE_UNSPECIFIED: _ClassVar[BasePosition.Phase]
        PHASE_MAIN: _ClassVar[BasePosition.Phase]
        PHASE_RETURN: _ClassVar[BasePosition.Phase]
        PHASE_NOBLE: _ClassVar[BasePosition.Phase]
        PHASE_OVER: _ClassVar[BasePosition.Phase]
    PHASE_UNSPECIFIED: BasePosition.Phase
    PHASE_MAIN: BasePosition.Phase
    PHASE_RETURN: BasePosition.Phase
    PHASE_NOBLE: BasePosition.Phase
    PHASE_OVER: BasePosition.Phase
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FINAL_ROUND_FIELD_NUMBER: _ClassVar[int]
    PASSES_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZES_FIELD_NUMBER: _ClassVar[int]
    NOBLES_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    players: int
    start_seat: int
    current: int
    phase: BasePosition.Phase
    turn: int
    final_round: bool
    passes: int
    supply: Tokens
    board: _containers.RepeatedCompositeFieldContainer[BoardRow]
    decks: _containers.RepeatedCompositeFieldContainer[Deck]
    deck_sizes: _containers.RepeatedScalarFieldContainer[int]
    nobles: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[BaseSeat]
    observer: int
    def __init__(self, players: _Optional[int] = ..., start_seat: _Optional[int] = ..., current: _Optional[int] = ..., phase: _Optional[_Union[BasePosition.Phase, str]] = ..., turn: _Optional[int] = ..., final_round: _Optional[bool] = ..., passes: _Optional[int] = ..., supply: _Optional[_Union[Tokens, _Mapping]] = ..., board: _Optional[_Iterable[_Union[BoardRow, _Mapping]]] = ..., decks: _Optional[_Iterable[_Union[Deck, _Mapping]]] = ..., deck_sizes: _Optional[_Iterable[int]] = ..., nobles: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[BaseSeat, _Mapping]]] = ..., observer: _Optional[int] = ...) -> None: ...

class BoardRow(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class Deck(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class BaseSeat(_message.Message):
    __slots__ = ("tokens", "cards", "reserved", "nobles", "points", "bonuses")
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    RESERVED_FIELD_NUMBER: _ClassVar[int]
    NOBLES_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    BONUSES_FIELD_NUMBER: _ClassVar[int]
    tokens: Tokens
    cards: _containers.RepeatedScalarFieldContainer[int]
    reserved: _containers.RepeatedCompositeFieldContainer[ReservedCard]
    nobles: _containers.RepeatedScalarFieldContainer[int]
    points: int
    bonuses: Tokens
    def __init__(self, tokens: _Optional[_Union[Tokens, _Mapping]] = ..., cards: _Optional[_Iterable[int]] = ..., reserved: _Optional[_Iterable[_Union[ReservedCard, _Mapping]]] = ..., nobles: _Optional[_Iterable[int]] = ..., points: _Optional[int] = ..., bonuses: _Optional[_Union[Tokens, _Mapping]] = ...) -> None: ...

class ReservedCard(_message.Message):
    __slots__ = ("card", "level", "blind")
    CARD_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    BLIND_FIELD_NUMBER: _ClassVar[int]
    card: int
    level: int
    blind: bool
    def __init__(self, card: _Optional[int] = ..., level: _Optional[int] = ..., blind: _Optional[bool] = ...) -> None: ...

class BaseMove(_message.Message):
    __slots__ = ("kind", "tokens", "card", "level", "noble")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[BaseMove.Kind]
        KIND_TAKE: _ClassVar[BaseMove.Kind]
        KIND_RESERVE: _ClassVar[BaseMove.Kind]
        KIND_RESERVE_DECK: _ClassVar[BaseMove.Kind]
        KIND_BUY: _ClassVar[BaseMove.Kind]
        KIND_RETURN: _ClassVar[BaseMove.Kind]
        KIND_NOBLE: _ClassVar[BaseMove.Kind]
        KIND_PASS: _ClassVar[BaseMove.Kind]
    KIND_UNSPECIFIED: BaseMove.Kind
    KIND_TAKE: BaseMove.Kind
    KIND_RESERVE: BaseMove.Kind
    KIND_RESERVE_DECK: BaseMove.Kind
    KIND_BUY: BaseMove.Kind
    KIND_RETURN: BaseMove.Kind
    KIND_NOBLE: BaseMove.Kind
    KIND_PASS: BaseMove.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    NOBLE_FIELD_NUMBER: _ClassVar[int]
    kind: BaseMove.Kind
    tokens: Tokens
    card: int
    level: int
    noble: int
    def __init__(self, kind: _Optional[_Union[BaseMove.Kind, str]] = ..., tokens: _Optional[_Union[Tokens, _Mapping]] = ..., card: _Optional[int] = ..., level: _Optional[int] = ..., noble: _Optional[int] = ...) -> None: ...

class Card(_message.Message):
    __slots__ = ("id", "level", "color", "points", "cost")
    ID_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    id: int
    level: int
    color: Color
    points: int
    cost: Tokens
    def __init__(self, id: _Optional[int] = ..., level: _Optional[int] = ..., color: _Optional[_Union[Color, str]] = ..., points: _Optional[int] = ..., cost: _Optional[_Union[Tokens, _Mapping]] = ...) -> None: ...

class Noble(_message.Message):
    __slots__ = ("id", "points", "requires")
    ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_FIELD_NUMBER: _ClassVar[int]
    id: int
    points: int
    requires: Tokens
    def __init__(self, id: _Optional[int] = ..., points: _Optional[int] = ..., requires: _Optional[_Union[Tokens, _Mapping]] = ...) -> None: ...

class BaseCatalog(_message.Message):
    __slots__ = ("cards", "nobles")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    NOBLES_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    nobles: _containers.RepeatedCompositeFieldContainer[Noble]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., nobles: _Optional[_Iterable[_Union[Noble, _Mapping]]] = ...) -> None: ...

class MarvelTokens(_message.Message):
    __slots__ = ("yellow", "red", "orange", "blue", "purple", "green", "grey")
    YELLOW_FIELD_NUMBER: _ClassVar[int]
    RED_FIELD_NUMBER: _ClassVar[int]
    ORANGE_FIELD_NUMBER: _ClassVar[int]
    BLUE_FIELD_NUMBER: _ClassVar[int]
    PURPLE_FIELD_NUMBER: _ClassVar[int]
    GREEN_FIELD_NUMBER: _ClassVar[int]
    GREY_FIELD_NUMBER: _ClassVar[int]
    yellow: int
    red: int
    orange: int
    blue: int
    purple: int
    green: int
    grey: int
    def __init__(self, yellow: _Optional[int] = ..., red: _Optional[int] = ..., orange: _Optional[int] = ..., blue: _Optional[int] = ..., purple: _Optional[int] = ..., green: _Optional[int] = ..., grey: _Optional[int] = ...) -> None: ...

class MarvelPosition(_message.Message):
    __slots__ = ("players", "start_seat", "current", "phase", "turn", "final_round", "passes", "supply", "board", "decks", "deck_sizes", "locations", "avengers", "seats", "observer")
    class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PHASE_UNSPECIFIED: _ClassVar[MarvelPosition.Phase]
        PHASE_MAIN: _ClassVar[MarvelPosition.Phase]
        PHASE_RETURN: _ClassVar[MarvelPosition.Phase]
        PHASE_LOCATION: _ClassVar[MarvelPosition.Phase]
        PHASE_OVER: _ClassVar[MarvelPosition.Phase]
    PHASE_UNSPECIFIED: MarvelPosition.Phase
    PHASE_MAIN: MarvelPosition.Phase
    PHASE_RETURN: MarvelPosition.Phase
    PHASE_LOCATION: MarvelPosition.Phase
    PHASE_OVER: MarvelPosition.Phase
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FINAL_ROUND_FIELD_NUMBER: _ClassVar[int]
    PASSES_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZES_FIELD_NUMBER: _ClassVar[int]
    LOCATIONS_FIELD_NUMBER: _ClassVar[int]
    AVENGERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    players: int
    start_seat: int
    current: int
    phase: MarvelPosition.Phase
    turn: int
    final_round: bool
    passes: int
    supply: MarvelTokens
    board: _containers.RepeatedCompositeFieldContainer[BoardRow]
    decks: _containers.RepeatedCompositeFieldContainer[Deck]
    deck_sizes: _containers.RepeatedScalarFieldContainer[int]
    locations: _containers.RepeatedScalarFieldContainer[int]
    avengers: int
    seats: _containers.RepeatedCompositeFieldContainer[MarvelSeat]
    observer: int
    def __init__(self, players: _Optional[int] = ..., start_seat: _Optional[int] = ..., current: _Optional[int] = ..., phase: _Optional[_Union[MarvelPosition.Phase, str]] = ..., turn: _Optional[int] = ..., final_round: _Optional[bool] = ..., passes: _Optional[int] = ..., supply: _Optional[_Union[MarvelTokens, _Mapping]] = ..., board: _Optional[_Iterable[_Union[BoardRow, _Mapping]]] = ..., decks: _Optional[_Iterable[_Union[Deck, _Mapping]]] = ..., deck_sizes: _Optional[_Iterable[int]] = ..., locations: _Optional[_Iterable[int]] = ..., avengers: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[MarvelSeat, _Mapping]]] = ..., observer: _Optional[int] = ...) -> None: ...

class MarvelSeat(_message.Message):
    __slots__ = ("tokens", "cards", "reserved", "locations", "points", "bonuses", "avengers_icons", "meets_gauntlet")
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    RESERVED_FIELD_NUMBER: _ClassVar[int]
    LOCATIONS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    BONUSES_FIELD_NUMBER: _ClassVar[int]
    AVENGERS_ICONS_FIELD_NUMBER: _ClassVar[int]
    MEETS_GAUNTLET_FIELD_NUMBER: _ClassVar[int]
    tokens: MarvelTokens
    cards: _containers.RepeatedScalarFieldContainer[int]
    reserved: _containers.RepeatedCompositeFieldContainer[ReservedCard]
    locations: _containers.RepeatedScalarFieldContainer[int]
    points: int
    bonuses: MarvelTokens
    avengers_icons: int
    meets_gauntlet: bool
    def __init__(self, tokens: _Optional[_Union[MarvelTokens, _Mapping]] = ..., cards: _Optional[_Iterable[int]] = ..., reserved: _Optional[_Iterable[_Union[ReservedCard, _Mapping]]] = ..., locations: _Optional[_Iterable[int]] = ..., points: _Optional[int] = ..., bonuses: _Optional[_Union[MarvelTokens, _Mapping]] = ..., avengers_icons: _Optional[int] = ..., meets_gauntlet: _Optional[bool] = ...) -> None: ...

class MarvelMove(_message.Message):
    __slots__ = ("kind", "tokens", "card", "level", "location")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[MarvelMove.Kind]
        KIND_TAKE: _ClassVar[MarvelMove.Kind]
        KIND_RESERVE: _ClassVar[MarvelMove.Kind]
        KIND_RESERVE_DECK: _ClassVar[MarvelMove.Kind]
        KIND_BUY: _ClassVar[MarvelMove.Kind]
        KIND_RETURN: _ClassVar[MarvelMove.Kind]
        KIND_LOCATION: _ClassVar[MarvelMove.Kind]
        KIND_PASS: _ClassVar[MarvelMove.Kind]
    KIND_UNSPECIFIED: MarvelMove.Kind
    KIND_TAKE: MarvelMove.Kind
    KIND_RESERVE: MarvelMove.Kind
    KIND_RESERVE_DECK: MarvelMove.Kind
    KIND_BUY: MarvelMove.Kind
    KIND_RETURN: MarvelMove.Kind
    KIND_LOCATION: MarvelMove.Kind
    KIND_PASS: MarvelMove.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    kind: MarvelMove.Kind
    tokens: MarvelTokens
    card: int
    level: int
    location: int
    def __init__(self, kind: _Optional[_Union[MarvelMove.Kind, str]] = ..., tokens: _Optional[_Union[MarvelTokens, _Mapping]] = ..., card: _Optional[int] = ..., level: _Optional[int] = ..., location: _Optional[int] = ...) -> None: ...

class MarvelCard(_message.Message):
    __slots__ = ("id", "name", "level", "color", "points", "avengers", "time_stone", "cost")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    AVENGERS_FIELD_NUMBER: _ClassVar[int]
    TIME_STONE_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    level: int
    color: MarvelColor
    points: int
    avengers: int
    time_stone: bool
    cost: MarvelTokens
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., level: _Optional[int] = ..., color: _Optional[_Union[MarvelColor, str]] = ..., points: _Optional[int] = ..., avengers: _Optional[int] = ..., time_stone: _Optional[bool] = ..., cost: _Optional[_Union[MarvelTokens, _Mapping]] = ...) -> None: ...

class MarvelLocation(_message.Message):
    __slots__ = ("id", "name", "tile", "side", "points", "requires")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    tile: int
    side: str
    points: int
    requires: MarvelTokens
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., tile: _Optional[int] = ..., side: _Optional[str] = ..., points: _Optional[int] = ..., requires: _Optional[_Union[MarvelTokens, _Mapping]] = ...) -> None: ...

class MarvelCatalog(_message.Message):
    __slots__ = ("cards", "locations")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    LOCATIONS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[MarvelCard]
    locations: _containers.RepeatedCompositeFieldContainer[MarvelLocation]
    def __init__(self, cards: _Optional[_Iterable[_Union[MarvelCard, _Mapping]]] = ..., locations: _Optional[_Iterable[_Union[MarvelLocation, _Mapping]]] = ...) -> None: ...

class DuelTokens(_message.Message):
    __slots__ = ("white", "blue", "green", "red", "black", "pearl", "gold")
    WHITE_FIELD_NUMBER: _ClassVar[int]
    BLUE_FIELD_NUMBER: _ClassVar[int]
    GREEN_FIELD_NUMBER: _ClassVar[int]
    RED_FIELD_NUMBER: _ClassVar[int]
    BLACK_FIELD_NUMBER: _ClassVar[int]
    PEARL_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    white: int
    blue: int
    green: int
    red: int
    black: int
    pearl: int
    gold: int
    def __init__(self, white: _Optional[int] = ..., blue: _Optional[int] = ..., green: _Optional[int] = ..., red: _Optional[int] = ..., black: _Optional[int] = ..., pearl: _Optional[int] = ..., gold: _Optional[int] = ...) -> None: ...

class DuelPosition(_message.Message):
    __slots__ = ("players", "start_seat", "current", "phase", "turn", "extra_turn", "pending_card", "board", "bag", "bag_seed", "bag_contents", "privileges", "pyramid", "decks", "deck_sizes", "royals", "seats", "observer")
    class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PHASE_UNSPECIFIED: _ClassVar[DuelPosition.Phase]
        PHASE_MAIN: _ClassVar[DuelPosition.Phase]
        PHASE_MANDATORY: _ClassVar[DuelPosition.Phase]
        PHASE_RESERVE: _ClassVar[DuelPosition.Phase]
        PHASE_JOKER: _ClassVar[DuelPosition.Phase]
        PHASE_TOKEN: _ClassVar[DuelPosition.Phase]
        PHASE_STEAL: _ClassVar[DuelPosition.Phase]
        PHASE_ROYAL: _ClassVar[DuelPosition.Phase]
        PHASE_DISCARD: _ClassVar[DuelPosition.Phase]
        PHASE_OVER: _ClassVar[DuelPosition.Phase]
    PHASE_UNSPECIFIED: DuelPosition.Phase
    PHASE_MAIN: DuelPosition.Phase
    PHASE_MANDATORY: DuelPosition.Phase
    PHASE_RESERVE: DuelPosition.Phase
    PHASE_JOKER: DuelPosition.Phase
    PHASE_TOKEN: DuelPosition.Phase
    PHASE_STEAL: DuelPosition.Phase
    PHASE_ROYAL: DuelPosition.Phase
    PHASE_DISCARD: DuelPosition.Phase
    PHASE_OVER: DuelPosition.Phase
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    EXTRA_TURN_FIELD_NUMBER: _ClassVar[int]
    PENDING_CARD_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    BAG_FIELD_NUMBER: _ClassVar[int]
    BAG_SEED_FIELD_NUMBER: _ClassVar[int]
    BAG_CONTENTS_FIELD_NUMBER: _ClassVar[int]
    PRIVILEGES_FIELD_NUMBER: _ClassVar[int]
    PYRAMID_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZES_FIELD_NUMBER: _ClassVar[int]
    ROYALS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    players: int
    start_seat: int
    current: int
    phase: DuelPosition.Phase
    turn: int
    extra_turn: bool
    pending_card: int
    board: _containers.RepeatedScalarFieldContainer[int]
    bag: _containers.RepeatedScalarFieldContainer[int]
    bag_seed: int
    bag_contents: DuelTokens
    privileges: int
    pyramid: _containers.RepeatedCompositeFieldContainer[BoardRow]
    decks: _containers.RepeatedCompositeFieldContainer[Deck]
    deck_sizes: _containers.RepeatedScalarFieldContainer[int]
    royals: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[DuelSeat]
    observer: int
    def __init__(self, players: _Optional[int] = ..., start_seat: _Optional[int] = ..., current: _Optional[int] = ..., phase: _Optional[_Union[DuelPosition.Phase, str]] = ..., turn: _Optional[int] = ..., extra_turn: _Optional[bool] = ..., pending_card: _Optional[int] = ..., board: _Optional[_Iterable[int]] = ..., bag: _Optional[_Iterable[int]] = ..., bag_seed: _Optional[int] = ..., bag_contents: _Optional[_Union[DuelTokens, _Mapping]] = ..., privileges: _Optional[int] = ..., pyramid: _Optional[_Iterable[_Union[BoardRow, _Mapping]]] = ..., decks: _Optional[_Iterable[_Union[Deck, _Mapping]]] = ..., deck_sizes: _Optional[_Iterable[int]] = ..., royals: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[DuelSeat, _Mapping]]] = ..., observer: _Optional[int] = ...) -> None: ...

class DuelJoker(_message.Message):
    __slots__ = ("card", "color")
    CARD_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    card: int
    color: int
    def __init__(self, card: _Optional[int] = ..., color: _Optional[int] = ...) -> None: ...

class DuelSeat(_message.Message):
    __slots__ = ("tokens", "cards", "jokers", "reserved", "privileges", "royals", "points", "crowns", "bonuses")
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    JOKERS_FIELD_NUMBER: _ClassVar[int]
    RESERVED_FIELD_NUMBER: _ClassVar[int]
    PRIVILEGES_FIELD_NUMBER: _ClassVar[int]
    ROYALS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    CROWNS_FIELD_NUMBER: _ClassVar[int]
    BONUSES_FIELD_NUMBER: _ClassVar[int]
    tokens: DuelTokens
    cards: _containers.RepeatedScalarFieldContainer[int]
    jokers: _containers.RepeatedCompositeFieldContainer[DuelJoker]
    reserved: _containers.RepeatedCompositeFieldContainer[ReservedCard]
    privileges: int
    royals: _containers.RepeatedScalarFieldContainer[int]
    points: int
    crowns: int
    bonuses: DuelTokens
    def __init__(self, tokens: _Optional[_Union[DuelTokens, _Mapping]] = ..., cards: _Optional[_Iterable[int]] = ..., jokers: _Optional[_Iterable[_Union[DuelJoker, _Mapping]]] = ..., reserved: _Optional[_Iterable[_Union[ReservedCard, _Mapping]]] = ..., privileges: _Optional[int] = ..., royals: _Optional[_Iterable[int]] = ..., points: _Optional[int] = ..., crowns: _Optional[int] = ..., bonuses: _Optional[_Union[DuelTokens, _Mapping]] = ...) -> None: ...

class DuelMove(_message.Message):
    __slots__ = ("kind", "cells", "tokens", "card", "level", "royal")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[DuelMove.Kind]
        KIND_PRIVILEGE: _ClassVar[DuelMove.Kind]
        KIND_REPLENISH: _ClassVar[DuelMove.Kind]
        KIND_TAKE: _ClassVar[DuelMove.Kind]
        KIND_GOLD: _ClassVar[DuelMove.Kind]
        KIND_RESERVE: _ClassVar[DuelMove.Kind]
        KIND_RESERVE_DECK: _ClassVar[DuelMove.Kind]
        KIND_BUY: _ClassVar[DuelMove.Kind]
        KIND_JOKER: _ClassVar[DuelMove.Kind]
        KIND_TOKEN: _ClassVar[DuelMove.Kind]
        KIND_STEAL: _ClassVar[DuelMove.Kind]
        KIND_ROYAL: _ClassVar[DuelMove.Kind]
        KIND_DISCARD: _ClassVar[DuelMove.Kind]
        KIND_PASS: _ClassVar[DuelMove.Kind]
    KIND_UNSPECIFIED: DuelMove.Kind
    KIND_PRIVILEGE: DuelMove.Kind
    KIND_REPLENISH: DuelMove.Kind
    KIND_TAKE: DuelMove.Kind
    KIND_GOLD: DuelMove.Kind
    KIND_RESERVE: DuelMove.Kind
    KIND_RESERVE_DECK: DuelMove.Kind
    KIND_BUY: DuelMove.Kind
    KIND_JOKER: DuelMove.Kind
    KIND_TOKEN: DuelMove.Kind
    KIND_STEAL: DuelMove.Kind
    KIND_ROYAL: DuelMove.Kind
    KIND_DISCARD: DuelMove.Kind
    KIND_PASS: DuelMove.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ROYAL_FIELD_NUMBER: _ClassVar[int]
    kind: DuelMove.Kind
    cells: _containers.RepeatedScalarFieldContainer[int]
    tokens: DuelTokens
    card: int
    level: int
    royal: int
    def __init__(self, kind: _Optional[_Union[DuelMove.Kind, str]] = ..., cells: _Optional[_Iterable[int]] = ..., tokens: _Optional[_Union[DuelTokens, _Mapping]] = ..., card: _Optional[int] = ..., level: _Optional[int] = ..., royal: _Optional[int] = ...) -> None: ...

class DuelCard(_message.Message):
    __slots__ = ("id", "level", "color", "points", "crowns", "bonus", "abilities", "cost")
    ID_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    CROWNS_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    ABILITIES_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    id: int
    level: int
    color: DuelColor
    points: int
    crowns: int
    bonus: int
    abilities: _containers.RepeatedScalarFieldContainer[DuelAbility]
    cost: DuelTokens
    def __init__(self, id: _Optional[int] = ..., level: _Optional[int] = ..., color: _Optional[_Union[DuelColor, str]] = ..., points: _Optional[int] = ..., crowns: _Optional[int] = ..., bonus: _Optional[int] = ..., abilities: _Optional[_Iterable[_Union[DuelAbility, str]]] = ..., cost: _Optional[_Union[DuelTokens, _Mapping]] = ...) -> None: ...

class DuelRoyal(_message.Message):
    __slots__ = ("id", "points", "abilities")
    ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    ABILITIES_FIELD_NUMBER: _ClassVar[int]
    id: int
    points: int
    abilities: _containers.RepeatedScalarFieldContainer[DuelAbility]
    def __init__(self, id: _Optional[int] = ..., points: _Optional[int] = ..., abilities: _Optional[_Iterable[_Union[DuelAbility, str]]] = ...) -> None: ...

class DuelCatalog(_message.Message):
    __slots__ = ("cards", "royals", "spiral")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    ROYALS_FIELD_NUMBER: _ClassVar[int]
    SPIRAL_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[DuelCard]
    royals: _containers.RepeatedCompositeFieldContainer[DuelRoyal]
    spiral: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[_Union[DuelCard, _Mapping]]] = ..., royals: _Optional[_Iterable[_Union[DuelRoyal, _Mapping]]] = ..., spiral: _Optional[_Iterable[str]] = ...) -> None: ...

class GetCatalogRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, str]] = ...) -> None: ...

class GetCatalogResponse(_message.Message):
    __slots__ = ("game", "base", "duel", "marvel")
    GAME_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    DUEL_FIELD_NUMBER: _ClassVar[int]
    MARVEL_FIELD_NUMBER: _ClassVar[int]
    game: Game
    base: BaseCatalog
    duel: DuelCatalog
    marvel: MarvelCatalog
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., base: _Optional[_Union[BaseCatalog, _Mapping]] = ..., duel: _Optional[_Union[DuelCatalog, _Mapping]] = ..., marvel: _Optional[_Union[MarvelCatalog, _Mapping]] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("request_id", "game", "players", "seed")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    game: Game
    players: int
    seed: int
    def __init__(self, request_id: _Optional[str] = ..., game: _Optional[_Union[Game, str]] = ..., players: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("request_id", "position", "seed", "status")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: Position
    seed: int
    status: GameStatus
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[Position, _Mapping]] = ..., seed: _Optional[int] = ..., status: _Optional[_Union[GameStatus, _Mapping]] = ...) -> None: ...

class LegalActionsRequest(_message.Message):
    __slots__ = ("request_id", "position", "all_payments")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    ALL_PAYMENTS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: Position
    all_payments: bool
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[Position, _Mapping]] = ..., all_payments: _Optional[bool] = ...) -> None: ...

class LegalActionsResponse(_message.Message):
    __slots__ = ("request_id", "moves", "status")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    status: GameStatus
    def __init__(self, request_id: _Optional[str] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., status: _Optional[_Union[GameStatus, _Mapping]] = ...) -> None: ...

class ApplyActionsRequest(_message.Message):
    __slots__ = ("request_id", "position", "moves")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: Position
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[Position, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

class ApplyActionsResponse(_message.Message):
    __slots__ = ("request_id", "position", "applied", "status")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: Position
    applied: _containers.RepeatedCompositeFieldContainer[Move]
    status: GameStatus
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[Position, _Mapping]] = ..., applied: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., status: _Optional[_Union[GameStatus, _Mapping]] = ...) -> None: ...

class GetMoveRequest(_message.Message):
    __slots__ = ("request_id", "position", "level", "limits", "threads", "seed", "temperature", "perfect_information", "lines")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    PERFECT_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: Position
    level: int
    limits: SearchLimits
    threads: int
    seed: int
    temperature: float
    perfect_information: bool
    lines: int
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[Position, _Mapping]] = ..., level: _Optional[int] = ..., limits: _Optional[_Union[SearchLimits, _Mapping]] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., temperature: _Optional[float] = ..., perfect_information: _Optional[bool] = ..., lines: _Optional[int] = ...) -> None: ...

class GetMoveResponse(_message.Message):
    __slots__ = ("request_id", "moves", "searches", "turn_complete", "position", "status", "options", "incomplete_reason")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    SEARCHES_FIELD_NUMBER: _ClassVar[int]
    TURN_COMPLETE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    INCOMPLETE_REASON_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    searches: _containers.RepeatedCompositeFieldContainer[SearchStats]
    turn_complete: bool
    position: Position
    status: GameStatus
    options: EffectiveOptions
    incomplete_reason: str
    def __init__(self, request_id: _Optional[str] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., searches: _Optional[_Iterable[_Union[SearchStats, _Mapping]]] = ..., turn_complete: _Optional[bool] = ..., position: _Optional[_Union[Position, _Mapping]] = ..., status: _Optional[_Union[GameStatus, _Mapping]] = ..., options: _Optional[_Union[EffectiveOptions, _Mapping]] = ..., incomplete_reason: _Optional[str] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("request_id", "position", "limits", "threads", "seed", "lines", "candidates", "report_every_ms", "perfect_information")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    REPORT_EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    PERFECT_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    position: Position
    limits: SearchLimits
    threads: int
    seed: int
    lines: int
    candidates: _containers.RepeatedCompositeFieldContainer[Move]
    report_every_ms: int
    perfect_information: bool
    def __init__(self, request_id: _Optional[str] = ..., position: _Optional[_Union[Position, _Mapping]] = ..., limits: _Optional[_Union[SearchLimits, _Mapping]] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., lines: _Optional[int] = ..., candidates: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., report_every_ms: _Optional[int] = ..., perfect_information: _Optional[bool] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("request_id", "final", "stats", "options", "sequence")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    final: bool
    stats: SearchStats
    options: EffectiveOptions
    sequence: int
    def __init__(self, request_id: _Optional[str] = ..., final: _Optional[bool] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ..., options: _Optional[_Union[EffectiveOptions, _Mapping]] = ..., sequence: _Optional[int] = ...) -> None: ...

class AnalyzeGameRequest(_message.Message):
    __slots__ = ("request_id", "initial_position", "moves", "iterations", "threads", "seed", "played_visits", "mistake", "blunder")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    INITIAL_POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VISITS_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_FIELD_NUMBER: _ClassVar[int]
    BLUNDER_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    initial_position: Position
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    iterations: int
    threads: int
    seed: int
    played_visits: int
    mistake: float
    blunder: float
    def __init__(self, request_id: _Optional[str] = ..., initial_position: _Optional[_Union[Position, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., iterations: _Optional[int] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., played_visits: _Optional[int] = ..., mistake: _Optional[float] = ..., blunder: _Optional[float] = ...) -> None: ...

class Alternative(_message.Message):
    __slots__ = ("move", "visits", "win_probability")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    move: Move
    visits: int
    win_probability: float
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., visits: _Optional[int] = ..., win_probability: _Optional[float] = ...) -> None: ...

class DecisionVerdict(_message.Message):
    __slots__ = ("index", "turn", "seat", "played", "best", "played_value", "best_value", "drop", "mark", "forced", "played_visits", "extra_visits", "top", "win_probability")
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
    index: int
    turn: int
    seat: int
    played: Move
    best: Move
    played_value: float
    best_value: float
    drop: float
    mark: Mark
    forced: bool
    played_visits: int
    extra_visits: int
    top: _containers.RepeatedCompositeFieldContainer[Alternative]
    win_probability: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, index: _Optional[int] = ..., turn: _Optional[int] = ..., seat: _Optional[int] = ..., played: _Optional[_Union[Move, _Mapping]] = ..., best: _Optional[_Union[Move, _Mapping]] = ..., played_value: _Optional[float] = ..., best_value: _Optional[float] = ..., drop: _Optional[float] = ..., mark: _Optional[_Union[Mark, str]] = ..., forced: _Optional[bool] = ..., played_visits: _Optional[int] = ..., extra_visits: _Optional[int] = ..., top: _Optional[_Iterable[_Union[Alternative, _Mapping]]] = ..., win_probability: _Optional[_Iterable[float]] = ...) -> None: ...

class SeatSummary(_message.Message):
    __slots__ = ("seat", "decisions", "forced", "accuracy", "mistakes", "blunders", "mean_drop", "agreed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_FIELD_NUMBER: _ClassVar[int]
    MISTAKES_FIELD_NUMBER: _ClassVar[int]
    BLUNDERS_FIELD_NUMBER: _ClassVar[int]
    MEAN_DROP_FIELD_NUMBER: _ClassVar[int]
    AGREED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    decisions: int
    forced: int
    accuracy: float
    mistakes: int
    blunders: int
    mean_drop: float
    agreed: int
    def __init__(self, seat: _Optional[int] = ..., decisions: _Optional[int] = ..., forced: _Optional[int] = ..., accuracy: _Optional[float] = ..., mistakes: _Optional[int] = ..., blunders: _Optional[int] = ..., mean_drop: _Optional[float] = ..., agreed: _Optional[int] = ...) -> None: ...

class GameAnalysisOptions(_message.Message):
    __slots__ = ("iterations", "threads", "seed", "played_visits", "mistake", "blunder")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VISITS_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_FIELD_NUMBER: _ClassVar[int]
    BLUNDER_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    threads: int
    seed: int
    played_visits: int
    mistake: float
    blunder: float
    def __init__(self, iterations: _Optional[int] = ..., threads: _Optional[int] = ..., seed: _Optional[int] = ..., played_visits: _Optional[int] = ..., mistake: _Optional[float] = ..., blunder: _Optional[float] = ...) -> None: ...

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
    decision: DecisionVerdict
    done: int
    total: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatSummary]
    status: GameStatus
    options: GameAnalysisOptions
    def __init__(self, request_id: _Optional[str] = ..., sequence: _Optional[int] = ..., final: _Optional[bool] = ..., decision: _Optional[_Union[DecisionVerdict, _Mapping]] = ..., done: _Optional[int] = ..., total: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatSummary, _Mapping]]] = ..., status: _Optional[_Union[GameStatus, _Mapping]] = ..., options: _Optional[_Union[GameAnalysisOptions, _Mapping]] = ...) -> None: ...
