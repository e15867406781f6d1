"""The one place where exceptions become gRPC status codes.

Every handler lets its exceptions fly; ``status_for`` turns them into a google.rpc.Status:

| exception | code | details |
|---|---|---|
| FieldError, PositionError, NotationError, SearchError, UnknownGameError, HiddenInformationError, other SplendorError | INVALID_ARGUMENT | google.rpc.BadRequest naming the field |
| IllegalMove, IllegalActionError | FAILED_PRECONDITION | google.rpc.PreconditionFailure with the reason |
| Busy | RESOURCE_EXHAUSTED | |
| ShuttingDown | UNAVAILABLE | |
| NetFault (a net the server cannot use: its fault, not the caller's; nets.py) | UNAVAILABLE | message without server paths |
| ClientGone | CANCELLED | |
| anything else | INTERNAL | logged with its traceback |
"""
from __future__ import annotations

import logging

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from ..games import IllegalActionError, SplendorError
from ..games.errors import PositionError
from .nets import NetFault

log = logging.getLogger("splendor_ai.service")


class FieldError(ValueError):
    """A request field that is malformed or impossible. ``field`` is its path in the request,
    e.g. ``position.base.seats[1].reserved[0].card``."""

    def __init__(self, field: str, description: str):
        super().__init__(f"{field}: {description}")
        self.field = field
        self.description = description


class IllegalMove(Exception):
    """A well-formed move that the rules do not allow here. ``subject`` is the request field."""

    def __init__(self, subject: str, reason: str):
        super().__init__(f"{subject}: {reason}")
        self.subject = subject
        self.reason = reason


class Busy(Exception):
    """The server is running as many searches as it may (``refusal``: the slots it lacks,
    ``slots`` or ``batch_slots``, the reason the refusal is counted under)."""

    def __init__(self, message: str, refusal: str = "slots"):
        super().__init__(message)
        self.refusal = refusal


class ShuttingDown(Exception):
    """The server is stopping and takes no new searches."""


class ClientGone(Exception):
    """The client cancelled the call or its deadline passed while we worked."""


def _status(code: int, message: str, *details) -> status_pb2.Status:
    status = status_pb2.Status(code=code, message=message)
    for d in details:
        packed = any_pb2.Any()
        packed.Pack(d)
        status.details.append(packed)
    return status


def _bad_request(field: str, description: str) -> error_details_pb2.BadRequest:
    return error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=description)])


def status_for(exc: BaseException) -> status_pb2.Status:
    """The status a request that raised ``exc`` ends with."""
    if isinstance(exc, FieldError):
        return _status(code_pb2.INVALID_ARGUMENT, str(exc), _bad_request(exc.field, exc.description))
    if isinstance(exc, PositionError):
        return _status(code_pb2.INVALID_ARGUMENT, str(exc), _bad_request(exc.field, exc.problem))
    if isinstance(exc, IllegalMove):
        failure = error_details_pb2.PreconditionFailure(violations=[
            error_details_pb2.PreconditionFailure.Violation(type="ILLEGAL_MOVE", subject=exc.subject,
                                                            description=exc.reason)])
        return _status(code_pb2.FAILED_PRECONDITION, str(exc), failure)
    if isinstance(exc, NetFault):  # before SplendorError: a WeightsError is one, and names server paths
        return _status(code_pb2.UNAVAILABLE, str(exc))
    if isinstance(exc, IllegalActionError):
        return _status(code_pb2.FAILED_PRECONDITION, str(exc))
    if isinstance(exc, SplendorError):  # notation, search parameters, unknown game, hidden cards
        return _status(code_pb2.INVALID_ARGUMENT, str(exc))
    if isinstance(exc, Busy):
        return _status(code_pb2.RESOURCE_EXHAUSTED, str(exc))
    if isinstance(exc, ShuttingDown):
        return _status(code_pb2.UNAVAILABLE, str(exc))
    if isinstance(exc, ClientGone):
        return _status(code_pb2.CANCELLED, str(exc) or "cancelled by the client")
    log.error("internal error", exc_info=exc)
    return _status(code_pb2.INTERNAL, f"internal error ({type(exc).__name__}); the server logged it")


def code_name(status: status_pb2.Status) -> str:
    return code_pb2.Code.Name(status.code)


def abort(context: grpc.ServicerContext, status: status_pb2.Status):
    """End the call with ``status`` (raises, as grpc's ``abort`` does)."""
    context.abort_with_status(rpc_status.to_status(status))
