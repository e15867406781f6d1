"""A thin client of the splendor-ai gRPC service (docs/protocol.md).

    from splendor_ai_client import Client

    with Client("localhost:50551") as ai:
        game = ai.new_game(players=2, seed=7)
        turn = ai.get_move(game.position, level=5)
        print([m.notation for m in turn.moves])

``AsyncClient`` has the same methods as coroutines. Failed calls raise ``ServiceError``
subclasses (``InvalidArgument`` with ``field_violations``, ``IllegalMove``, ``Busy``, ...).
The messages themselves are in ``splendor.v1.splendor_pb2`` (exported here as ``pb``).
"""
from splendor.v1 import splendor_pb2 as pb

from ._requests import with_drawn_card, with_drawn_tokens
from .aio import AsyncAnalysis, AsyncClient
from .client import DEFAULT_TARGET, Analysis, Client
from .errors import (
    Busy,
    Cancelled,
    DeadlineExceeded,
    FieldViolation,
    IllegalMove,
    InvalidArgument,
    PreconditionViolation,
    ServiceError,
    Unavailable,
)
from .types import (
    AnalysisReport,
    Applied,
    Catalog,
    DuelCard,
    DuelRoyal,
    DuelTokens,
    LegalMoves,
    Line,
    MarvelCard,
    MarvelLocation,
    MarvelTokens,
    Move,
    MoveResult,
    NewGame,
    Options,
    SearchStats,
    Status,
    Tokens,
    game_of,
)

__all__ = [
    "DEFAULT_TARGET", "Analysis", "AnalysisReport", "Applied", "AsyncAnalysis", "AsyncClient", "Busy",
    "Cancelled", "Catalog", "Client", "DeadlineExceeded", "DuelCard", "DuelRoyal", "DuelTokens", "FieldViolation",
    "IllegalMove", "InvalidArgument", "LegalMoves", "Line", "MarvelCard", "MarvelLocation", "MarvelTokens", "Move",
    "MoveResult", "NewGame", "Options", "PreconditionViolation", "SearchStats", "ServiceError", "Status", "Tokens",
    "Unavailable", "game_of", "pb", "with_drawn_card", "with_drawn_tokens",
]
