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
GAME_UNSPECIFIED: Game
GAME_BASE: Game
GAME_DUEL: Game
GAME_MARVEL: Game

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
