from splendor.v1 import position_pb2 as _position_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    tokens: _position_pb2.Tokens
    card: int
    level: int
    noble: int
    def __init__(self, kind: _Optional[_Union[BaseMove.Kind, str]] = ..., tokens: _Optional[_Union[_position_pb2.Tokens, _Mapping]] = ..., card: _Optional[int] = ..., level: _Optional[int] = ..., noble: _Optional[int] = ...) -> None: ...

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
    tokens: _position_pb2.MarvelTokens
    card: int
    level: int
    location: int
    def __init__(self, kind: _Optional[_Union[MarvelMove.Kind, str]] = ..., tokens: _Optional[_Union[_position_pb2.MarvelTokens, _Mapping]] = ..., card: _Optional[int] = ..., level: _Optional[int] = ..., location: _Optional[int] = ...) -> None: ...

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
    tokens: _position_pb2.DuelTokens
    card: int
    level: int
    royal: int
    def __init__(self, kind: _Optional[_Union[DuelMove.Kind, str]] = ..., cells: _Optional[_Iterable[int]] = ..., tokens: _Optional[_Union[_position_pb2.DuelTokens, _Mapping]] = ..., card: _Optional[int] = ..., level: _Optional[int] = ..., royal: _Optional[int] = ...) -> None: ...
