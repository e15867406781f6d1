"""The asyncio client: the same methods as the blocking one, as coroutines."""
from __future__ import annotations

import asyncio
from typing import AsyncIterator, Generic, Iterable, Optional, Sequence, overload

import grpc
from splendor.v1 import splendor_pb2 as pb
from splendor.v1 import splendor_pb2_grpc as pb_grpc

from . import _requests as rq
from ._channel import DEFAULT_RETRIES, ROUND_ROBIN, PemLike, Retries, Target, make_channel, token_metadata
from .client import DEFAULT_TARGET, Report
from .errors import ServiceError, Unavailable, from_rpc_error
from .types import AnalysisReport, Applied, Catalog, GameAnalysisReport, LegalMoves, MoveResult, NewGame


class AsyncAnalysis(Generic[Report]):
    """A running Analyze call: ``async for report in analysis``; ``cancel()``; ``await result()``.
    (Generic in its report class: AsyncGameAnalysis iterates over GameAnalysisReport.)"""

    @overload
    def __init__(self: "AsyncAnalysis[AnalysisReport]", call) -> None: ...
    @overload
    def __init__(self, call, report: "type[Report]") -> None: ...

    def __init__(self, call, report=AnalysisReport) -> None:
        self._call = call
        self._report = report
        self._cancelled = False
        self.final: Optional[Report] = None

    def __aiter__(self) -> AsyncIterator[Report]:
        return self

    async def __anext__(self) -> Report:
        try:
            msg = await self._call.read()
        except asyncio.CancelledError:
            if self._cancelled:
                raise StopAsyncIteration from None
            raise
        except grpc.aio.AioRpcError as err:
            if self._cancelled and err.code() == grpc.StatusCode.CANCELLED:
                raise StopAsyncIteration from None
            raise from_rpc_error(err) from None
        if msg is grpc.aio.EOF:
            raise StopAsyncIteration
        report = self._report.from_pb(msg)
        if report.final:
            self.final = report
        return report

    def cancel(self) -> None:
        self._cancelled = True
        self._call.cancel()

    async def result(self) -> Report:
        async for _ in self:
            pass
        if self.final is None:
            raise ServiceError(grpc.StatusCode.CANCELLED, "the analysis was cancelled before its final report")
        return self.final


class AsyncGameAnalysis(AsyncAnalysis[GameAnalysisReport]):
    """A running AnalyzeGame call: a report per decision, then the final summary."""

    def __init__(self, call):
        super().__init__(call, GameAnalysisReport)


class AsyncClient:
    """An asyncio client of the splendor-ai service (create it inside the running loop); the
    same options as ``Client`` (TLS, token, several addresses, retries)."""

    def __init__(self, target: Target = DEFAULT_TARGET, *, channel: Optional[grpc.aio.Channel] = None,
                 timeout: Optional[float] = None, options: Sequence = (), secure: bool = False,
                 root_certificates: PemLike = None, private_key: PemLike = None,
                 certificate_chain: PemLike = None, token: Optional[str] = None,
                 lb_policy: Optional[str] = ROUND_ROBIN, retries: Retries = DEFAULT_RETRIES,
                 server_name: Optional[str] = None):
        self._own_channel = channel is None
        self.channel = channel if channel is not None else make_channel(
            grpc.aio, target, secure=secure, root_certificates=root_certificates, private_key=private_key,
            certificate_chain=certificate_chain, options=options, lb_policy=lb_policy,
            retries=retries, server_name=server_name)
        self.stub = pb_grpc.SplendorServiceStub(self.channel)
        self.timeout = timeout
        self.metadata = token_metadata(token)

    async def _call(self, method, request, timeout):
        try:
            return await method(request, timeout=timeout if timeout is not None else self.timeout,
                                metadata=self.metadata)
        except grpc.aio.AioRpcError as err:
            raise from_rpc_error(err) from None

    async def wait_ready(self, timeout: float = 10.0) -> None:
        try:
            await asyncio.wait_for(self.channel.channel_ready(), timeout)
        except asyncio.TimeoutError:
            raise Unavailable(grpc.StatusCode.UNAVAILABLE, f"no server reachable within {timeout} s") from None

    async def catalog(self, game: str = "base", *, timeout: Optional[float] = None) -> Catalog:
        req = pb.GetCatalogRequest(game=rq.game(game))
        return Catalog.from_pb(await self._call(self.stub.GetCatalog, req, timeout))

    async def new_game(self, players: int = 2, seed: Optional[int] = None, *, game: str = "base",
                       request_id: str = "", timeout: Optional[float] = None) -> NewGame:
        req = pb.NewGameRequest(request_id=request_id, game=rq.game(game), players=players)
        if seed is not None:
            req.seed = seed
        return NewGame.from_pb(await self._call(self.stub.NewGame, req, timeout))

    async def legal_actions(self, position: rq.PositionLike, *, all_payments: bool = False, request_id: str = "",
                            timeout: Optional[float] = None) -> LegalMoves:
        req = pb.LegalActionsRequest(request_id=request_id, position=rq.position(position), all_payments=all_payments)
        return LegalMoves.from_pb(await self._call(self.stub.LegalActions, req, timeout))

    async def apply_actions(self, position: rq.PositionLike, moves: Iterable[rq.MoveLike], *, request_id: str = "",
                            timeout: Optional[float] = None) -> Applied:
        req = pb.ApplyActionsRequest(request_id=request_id, position=rq.position(position),
                                     moves=[rq.move(m) for m in moves])
        return Applied.from_pb(await self._call(self.stub.ApplyActions, req, timeout))

    async def get_move(self, position: rq.PositionLike, level: Optional[int] = None, *,
                       iterations: Optional[int] = None, time_ms: Optional[int] = None, threads: int = 0,
                       seed: Optional[int] = None, temperature: Optional[float] = None,
                       perfect_information: bool = False, lines: int = 0, request_id: str = "",
                       turn_elapsed_ms: int = 0, priority: Optional[str] = None,
                       timeout: Optional[float] = None) -> MoveResult:
        """The AI's whole turn (``Client.get_move``)."""
        req = rq.get_move(position, level=level, iterations=iterations, time_ms=time_ms, threads=threads, seed=seed,
                          temperature=temperature, perfect_information=perfect_information, lines=lines,
                          request_id=request_id, turn_elapsed_ms=turn_elapsed_ms, priority_=priority)
        return MoveResult.from_pb(await self._call(self.stub.GetMove, req, timeout))

    def analyze(self, position: rq.PositionLike, *, iterations: Optional[int] = None, time_ms: Optional[int] = None,
                threads: int = 0, seed: Optional[int] = None, lines: int = 0,
                candidates: Iterable[rq.MoveLike] = (), report_every_ms: int = 0,
                perfect_information: bool = False, request_id: str = "",
                priority: Optional[str] = None, timeout: Optional[float] = None) -> AsyncAnalysis[AnalysisReport]:
        req = rq.analyze(position, iterations=iterations, time_ms=time_ms, threads=threads, seed=seed, lines=lines,
                         candidates=candidates, report_every_ms=report_every_ms,
                         perfect_information=perfect_information, request_id=request_id, priority_=priority)
        return AsyncAnalysis(self.stub.Analyze(req, timeout=timeout if timeout is not None else self.timeout,
                                               metadata=self.metadata))

    def analyze_game(self, initial_position: rq.PositionLike, moves: Iterable[rq.MoveLike], *,
                     iterations: Optional[int] = None, threads: int = 0, seed: Optional[int] = None,
                     played_visits: int = 0, mistake: float = 0.0, blunder: float = 0.0, request_id: str = "",
                     timeout: Optional[float] = None) -> AsyncGameAnalysis:
        req = rq.analyze_game(initial_position, moves, iterations=iterations, threads=threads, seed=seed,
                              played_visits=played_visits, mistake=mistake, blunder=blunder, request_id=request_id)
        return AsyncGameAnalysis(self.stub.AnalyzeGame(req, timeout=timeout if timeout is not None else self.timeout,
                                                              metadata=self.metadata))

    async def close(self) -> None:
        if self._own_channel:
            await self.channel.close()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()
