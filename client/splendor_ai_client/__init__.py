"""A thin client of the splendor-ai gRPC service (docs/protocol.md).

    from splendor_ai_client import Client

    with Client("localhost:50551") as ai:
        game = ai.new_game(players=2, seed=7)
        turn = ai.get_move(game.position, level=5)
        print([m.notation for m in turn.moves])

Replicas: ``Client(["10.0.0.1:50551", "10.0.0.2:50551"])`` (or a ``dns:///`` target) spreads
calls over them; TLS and tokens: ``Client(target, root_certificates="ca.pem", token=...)``.
A call the server turns away (``UNAVAILABLE``, ``RESOURCE_EXHAUSTED``) is retried with
exponential backoff, up to 5 attempts (``retries=RetryPolicy(...)`` to change, ``retries=0``
to turn off). ``AsyncClient`` has the same methods as coroutines. Failed calls raise
``ServiceError`` subclasses (``InvalidArgument`` with ``field_violations``, ``IllegalMove``,
``Busy``, ...).
The messages themselves are in ``splendor.v1.splendor_pb2`` (exported here as ``pb``).
"""
from splendor.v1 import splendor_pb2 as pb

from ._channel import DEFAULT_RETRIES, RetryPolicy
from ._requests import with_drawn_card, with_drawn_tokens
from .aio import AsyncAnalysis, AsyncClient, AsyncGameAnalysis
from .client import DEFAULT_TARGET, Analysis, Client, GameAnalysis
from .errors import (
    Busy,
    Cancelled,
    DeadlineExceeded,
    FieldViolation,
    IllegalMove,
    InvalidArgument,
    PreconditionViolation,
    ServiceError,
    Unauthenticated,
    Unavailable,
)
from .types import (
    Alternative,
    AnalysisReport,
    Applied,
    Catalog,
    DuelCard,
    DuelRoyal,
    DuelTokens,
    GameAnalysisOptions,
    GameAnalysisReport,
    LegalMoves,
    LevelEstimate,
    Line,
    MarvelCard,
    MarvelLocation,
    MarvelTokens,
    Move,
    MoveResult,
    NewGame,
    Options,
    Reason,
    SearchStats,
    SeatSummary,
    Status,
    Tokens,
    Verdict,
    game_of,
)

__all__ = [
    "DEFAULT_RETRIES", "DEFAULT_TARGET", "Alternative", "Analysis", "AnalysisReport", "Applied", "AsyncAnalysis",
    "AsyncClient", "AsyncGameAnalysis", "Busy", "Cancelled", "Catalog", "Client", "DeadlineExceeded", "DuelCard",
    "DuelRoyal", "DuelTokens", "FieldViolation", "GameAnalysis", "GameAnalysisOptions", "GameAnalysisReport",
    "IllegalMove", "InvalidArgument", "LegalMoves", "LevelEstimate", "Line", "MarvelCard", "MarvelLocation",
    "MarvelTokens", "Move", "MoveResult", "NewGame", "Options", "PreconditionViolation", "Reason", "RetryPolicy",
    "SearchStats", "SeatSummary", "ServiceError", "Status", "Tokens", "Unauthenticated", "Unavailable", "Verdict",
    "game_of", "pb", "with_drawn_card", "with_drawn_tokens",
]
