from splendor.v1 import position_pb2 as _position_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    cost: _position_pb2.Tokens
    def __init__(self, id: _Optional[int] = ..., level: _Optional[int] = ..., color: _Optional[_Union[Color, str]] = ..., points: _Optional[int] = ..., cost: _Optional[_Union[_position_pb2.Tokens, _Mapping]] = ...) -> None: ...

class Noble(_message.Message):
    __slots__ = ("id", "points", "requires")
    ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_FIELD_NUMBER: _ClassVar[int]
    id: int
    points: int
    requires: _position_pb2.Tokens
    def __init__(self, id: _Optional[int] = ..., points: _Optional[int] = ..., requires: _Optional[_Union[_position_pb2.Tokens, _Mapping]] = ...) -> None: ...

class BaseCatalog(_message.Message):
    __slots__ = ("cards", "nobles")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    NOBLES_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    nobles: _containers.RepeatedCompositeFieldContainer[Noble]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., nobles: _Optional[_Iterable[_Union[Noble, _Mapping]]] = ...) -> None: ...

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
    cost: _position_pb2.MarvelTokens
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., level: _Optional[int] = ..., color: _Optional[_Union[MarvelColor, str]] = ..., points: _Optional[int] = ..., avengers: _Optional[int] = ..., time_stone: _Optional[bool] = ..., cost: _Optional[_Union[_position_pb2.MarvelTokens, _Mapping]] = ...) -> None: ...

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
    requires: _position_pb2.MarvelTokens
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., tile: _Optional[int] = ..., side: _Optional[str] = ..., points: _Optional[int] = ..., requires: _Optional[_Union[_position_pb2.MarvelTokens, _Mapping]] = ...) -> None: ...

class MarvelCatalog(_message.Message):
    __slots__ = ("cards", "locations")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    LOCATIONS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[MarvelCard]
    locations: _containers.RepeatedCompositeFieldContainer[MarvelLocation]
    def __init__(self, cards: _Optional[_Iterable[_Union[MarvelCard, _Mapping]]] = ..., locations: _Optional[_Iterable[_Union[MarvelLocation, _Mapping]]] = ...) -> None: ...

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
    cost: _position_pb2.DuelTokens
    def __init__(self, id: _Optional[int] = ..., level: _Optional[int] = ..., color: _Optional[_Union[DuelColor, str]] = ..., points: _Optional[int] = ..., crowns: _Optional[int] = ..., bonus: _Optional[int] = ..., abilities: _Optional[_Iterable[_Union[DuelAbility, str]]] = ..., cost: _Optional[_Union[_position_pb2.DuelTokens, _Mapping]] = ...) -> None: ...

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
