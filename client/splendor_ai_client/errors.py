"""Errors of the service as Python exceptions, keeping the gRPC status and its details.

Every failed call raises a ``ServiceError`` (or a subclass chosen by the status code) with
``code`` (a ``grpc.StatusCode``), ``message``, ``field_violations`` (from a
``google.rpc.BadRequest``: which request field is wrong and why) and
``precondition_violations`` (from a ``google.rpc.PreconditionFailure``: an illegal move).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

import grpc
from google.rpc import error_details_pb2, status_pb2

DETAILS_KEY = "grpc-status-details-bin"


@dataclass(frozen=True)
class FieldViolation:
    field: str  # the request field's path, e.g. "position.base.seats[1].reserved[0].card"
    description: str


@dataclass(frozen=True)
class PreconditionViolation:
    type: str  # "ILLEGAL_MOVE"
    subject: str  # the request field, e.g. "moves[2]"
    description: str  # the reason


class ServiceError(Exception):
    """A call that failed. ``str(err)`` is the server's message."""

    def __init__(self, code: grpc.StatusCode, message: str,
                 field_violations: Tuple[FieldViolation, ...] = (),
                 precondition_violations: Tuple[PreconditionViolation, ...] = ()):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field_violations = tuple(field_violations)
        self.precondition_violations = tuple(precondition_violations)

    @property
    def field(self) -> Optional[str]:
        """The first offending request field, if the server named one."""
        if self.field_violations:
            return self.field_violations[0].field
        if self.precondition_violations:
            return self.precondition_violations[0].subject
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.name}, {self.message!r}, field={self.field!r})"


class InvalidArgument(ServiceError):
    """INVALID_ARGUMENT: a malformed or impossible position, move or option."""


class IllegalMove(ServiceError):
    """FAILED_PRECONDITION: a well-formed move the rules do not allow here."""


class Busy(ServiceError):
    """RESOURCE_EXHAUSTED: the server runs as many searches as it may. The client's retry
    policy (``retries=``) has already tried again by the time this is raised: wait longer, or
    add slots or replicas."""


class Unavailable(ServiceError):
    """UNAVAILABLE: the server is not reachable, is shutting down, or the call's connection
    broke (a replica died under a running call, directly or behind a proxy). A call turned
    away before it started was already retried (``retries=``); a stream that broke after its
    first report was not: send it again."""


class DeadlineExceeded(ServiceError):
    """DEADLINE_EXCEEDED: the call's timeout passed."""


class Cancelled(ServiceError):
    """CANCELLED: the call was cancelled."""


class Unauthenticated(ServiceError):
    """UNAUTHENTICATED: the server wants a bearer token (``token=``) and got none or a wrong one."""


_CLASSES = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.FAILED_PRECONDITION: IllegalMove,
    grpc.StatusCode.RESOURCE_EXHAUSTED: Busy,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceeded,
    grpc.StatusCode.CANCELLED: Cancelled,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
}


def _details(metadata) -> status_pb2.Status:
    status = status_pb2.Status()
    for key, value in metadata or ():
        if key == DETAILS_KEY:
            status.ParseFromString(value)
    return status


def from_rpc_error(err) -> ServiceError:
    """The exception for a failed call (``grpc.RpcError`` or ``grpc.aio.AioRpcError``)."""
    code = err.code()
    status = _details(err.trailing_metadata())
    fields: List[FieldViolation] = []
    preconditions: List[PreconditionViolation] = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields += [FieldViolation(v.field, v.description) for v in bad.field_violations]
        elif detail.Is(error_details_pb2.PreconditionFailure.DESCRIPTOR):
            failure = error_details_pb2.PreconditionFailure()
            detail.Unpack(failure)
            preconditions += [PreconditionViolation(v.type, v.subject, v.description) for v in failure.violations]
    message = err.details() or ""
    if code == grpc.StatusCode.INTERNAL and message.startswith("Stream removed"):
        # The HTTP/2 stream was reset on the way (a proxy such as nginx lost the replica that
        # served the call): a broken connection, not a server error; retrying may work.
        code, message = grpc.StatusCode.UNAVAILABLE, f"the call's connection broke ({message})"
    cls = _CLASSES.get(code, ServiceError)
    return cls(code, message, tuple(fields), tuple(preconditions))
