"""The blocking client."""
from __future__ import annotations

from typing import Generic, Iterable, Iterator, Optional, Sequence, TypeVar, overload

import grpc
from splendor.v1 import splendor_pb2 as pb
from splendor.v1 import splendor_pb2_grpc as pb_grpc

from . import _requests as rq
from ._channel import DEFAULT_RETRIES, ROUND_ROBIN, PemLike, Retries, Target, make_channel, token_metadata
from .errors import ServiceError, Unavailable, from_rpc_error
from .types import AnalysisReport, Applied, Catalog, GameAnalysisReport, LegalMoves, MoveResult, NewGame

DEFAULT_TARGET = "localhost:50551"
Report = TypeVar("Report", AnalysisReport, GameAnalysisReport)


class Analysis(Generic[Report]):
    """A running Analyze call: iterate over its reports (the last one has ``final`` set).

    ``cancel()`` stops it (the iteration then ends quietly, without a final report);
    ``result()`` waits for the final report. (Generic in its report class: GameAnalysis
    iterates over GameAnalysisReport.)
    """

    @overload
    def __init__(self: "Analysis[AnalysisReport]", call) -> None: ...
    @overload
    def __init__(self, call, report: "type[Report]") -> None: ...

    def __init__(self, call, report=AnalysisReport) -> None:
        self._call = call
        self._report = report
        self._cancelled = False
        self.final: Optional[Report] = None

    def __iter__(self) -> Iterator[Report]:
        return self

    def __next__(self) -> Report:
        try:
            msg = next(self._call)
        except grpc.RpcError as err:
            if self._cancelled and err.code() == grpc.StatusCode.CANCELLED:
                raise StopIteration from None
            raise from_rpc_error(err) from None
        report = self._report.from_pb(msg)
        if report.final:
            self.final = report
        return report

    def cancel(self) -> None:
        self._cancelled = True
        self._call.cancel()

    def result(self) -> Report:
        for _ in self:
            pass
        if self.final is None:
            raise ServiceError(grpc.StatusCode.CANCELLED, "the analysis was cancelled before its final report")
        return self.final

    def __enter__(self) -> "Analysis[Report]":
        return self

    def __exit__(self, *exc) -> None:
        self.cancel()


class GameAnalysis(Analysis[GameAnalysisReport]):
    """A running AnalyzeGame call: iterate over its reports, one per decision (``decision``),
    then the final one (``final``, with ``seats``); ``cancel()``; ``result()`` waits for the
    final report."""

    def __init__(self, call):
        super().__init__(call, GameAnalysisReport)


class Client:
    """A blocking client of the splendor-ai service.

    ``target``: ``"host:port"``, any gRPC target (``"dns:///splendor.internal:50551"``), or a
    list of ``"host:port"`` addresses (replicas: calls are spread over them by gRPC's
    ``round_robin`` policy, the default ``lb_policy``). ``secure=True`` (implied by
    ``root_certificates`` or a client certificate) speaks TLS; ``root_certificates`` (PEM bytes
    or a file path; default: the system's) check the server; ``private_key`` and
    ``certificate_chain`` are the client's certificate for mutual TLS. ``token`` is sent as
    ``authorization: Bearer <token>`` with every call. ``server_name``: the name the server's
    certificate must carry, when it is not the host of ``target`` (e.g. dialing an address).
    ``timeout`` (seconds) is the default deadline of every call; each method also takes its
    own. ``retries``: a call turned away with ``UNAVAILABLE`` or ``RESOURCE_EXHAUSTED`` is
    tried again with exponential backoff, up to 5 attempts in all (``RetryPolicy()``, the
    default; see ``RetryPolicy``); a number of retries (1..4), a ``RetryPolicy`` of your own,
    or 0 / None for none. Failed calls raise ``errors.ServiceError`` subclasses.
    """

    def __init__(self, target: Target = DEFAULT_TARGET, *, channel: Optional[grpc.Channel] = None,
                 timeout: Optional[float] = None, options: Sequence = (), secure: bool = False,
                 root_certificates: PemLike = None, private_key: PemLike = None,
                 certificate_chain: PemLike = None, token: Optional[str] = None,
                 lb_policy: Optional[str] = ROUND_ROBIN, retries: Retries = DEFAULT_RETRIES,
                 server_name: Optional[str] = None):
        self._own_channel = channel is None
        self.channel = channel if channel is not None else make_channel(
            grpc, target, secure=secure, root_certificates=root_certificates, private_key=private_key,
            certificate_chain=certificate_chain, options=options, lb_policy=lb_policy,
            retries=retries, server_name=server_name)
        self.stub = pb_grpc.SplendorServiceStub(self.channel)
        self.timeout = timeout
        self.metadata = token_metadata(token)

    def _call(self, method, request, timeout):
        try:
            return method(request, timeout=timeout if timeout is not None else self.timeout, metadata=self.metadata)
        except grpc.RpcError as err:
            raise from_rpc_error(err) from None

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Wait until the channel is connected (raises Unavailable after ``timeout``)."""
        try:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise Unavailable(grpc.StatusCode.UNAVAILABLE, f"no server reachable within {timeout} s") from None

    def catalog(self, game: str = "base", *, timeout: Optional[float] = None) -> Catalog:
        return Catalog.from_pb(self._call(self.stub.GetCatalog, pb.GetCatalogRequest(game=rq.game(game)), timeout))

    def new_game(self, players: int = 2, seed: Optional[int] = None, *, game: str = "base",
                 request_id: str = "", timeout: Optional[float] = None) -> NewGame:
        req = pb.NewGameRequest(request_id=request_id, game=rq.game(game), players=players)
        if seed is not None:
            req.seed = seed
        return NewGame.from_pb(self._call(self.stub.NewGame, req, timeout))

    def legal_actions(self, position: rq.PositionLike, *, all_payments: bool = False, request_id: str = "",
                      timeout: Optional[float] = None) -> LegalMoves:
        req = pb.LegalActionsRequest(request_id=request_id, position=rq.position(position), all_payments=all_payments)
        return LegalMoves.from_pb(self._call(self.stub.LegalActions, req, timeout))

    def apply_actions(self, position: rq.PositionLike, moves: Iterable[rq.MoveLike], *, request_id: str = "",
                      timeout: Optional[float] = None) -> Applied:
        req = pb.ApplyActionsRequest(request_id=request_id, position=rq.position(position),
                                     moves=[rq.move(m) for m in moves])
        return Applied.from_pb(self._call(self.stub.ApplyActions, req, timeout))

    def get_move(self, position: rq.PositionLike, level: Optional[int] = None, *, iterations: Optional[int] = None,
                 time_ms: Optional[int] = None, threads: int = 0, seed: Optional[int] = None,
                 temperature: Optional[float] = None, perfect_information: bool = False, lines: int = 0,
                 request_id: str = "", turn_elapsed_ms: int = 0, priority: Optional[str] = None,
                 timeout: Optional[float] = None) -> MoveResult:
        """The AI's whole turn, for a ``level`` or explicit limits (``iterations`` per decision,
        ``time_ms`` for the turn). For the rest of a turn that came back incomplete, pass the
        answer's ``turn_elapsed_ms`` on: the two calls then share the turn's time."""
        req = rq.get_move(position, level=level, iterations=iterations, time_ms=time_ms, threads=threads, seed=seed,
                          temperature=temperature, perfect_information=perfect_information, lines=lines,
                          request_id=request_id, turn_elapsed_ms=turn_elapsed_ms, priority_=priority)
        return MoveResult.from_pb(self._call(self.stub.GetMove, req, timeout))

    def analyze(self, position: rq.PositionLike, *, iterations: Optional[int] = None, time_ms: Optional[int] = None,
                threads: int = 0, seed: Optional[int] = None, lines: int = 0,
                candidates: Iterable[rq.MoveLike] = (), report_every_ms: int = 0,
                perfect_information: bool = False, request_id: str = "",
                priority: Optional[str] = None, timeout: Optional[float] = None) -> Analysis[AnalysisReport]:
        req = rq.analyze(position, iterations=iterations, time_ms=time_ms, threads=threads, seed=seed, lines=lines,
                         candidates=candidates, report_every_ms=report_every_ms,
                         perfect_information=perfect_information, request_id=request_id, priority_=priority)
        return Analysis(self.stub.Analyze(req, timeout=timeout if timeout is not None else self.timeout,
                                          metadata=self.metadata))

    def analyze_game(self, initial_position: rq.PositionLike, moves: Iterable[rq.MoveLike], *,
                     iterations: Optional[int] = None, threads: int = 0, seed: Optional[int] = None,
                     played_visits: int = 0, mistake: float = 0.0, blunder: float = 0.0, request_id: str = "",
                     timeout: Optional[float] = None) -> GameAnalysis:
        """A whole game judged decision by decision (docs/analysis.md): ``initial_position``
        is the full deal, ``moves`` every decision in order."""
        req = rq.analyze_game(initial_position, moves, iterations=iterations, threads=threads, seed=seed,
                              played_visits=played_visits, mistake=mistake, blunder=blunder, request_id=request_id)
        return GameAnalysis(self.stub.AnalyzeGame(req, timeout=timeout if timeout is not None else self.timeout,
                                                         metadata=self.metadata))

    def close(self) -> None:
        if self._own_channel:
            self.channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
