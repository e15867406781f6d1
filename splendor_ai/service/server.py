"""Start and stop the gRPC server: the Splendor service, health checking, reflection.

``splendor-ai serve`` calls ``serve(Settings)``. Every setting has a flag and an
environment variable (``SPLENDOR_AI_<NAME>``), documented in docs/protocol.md.
SIGTERM (or Ctrl-C): stop accepting calls, let running searches finish within the grace
period, stop the ones still running shortly before it ends (they answer with what they
found), then exit 0.
"""
from __future__ import annotations

import logging
import signal
import threading
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from splendor.v1 import splendor_pb2 as pb
from splendor.v1 import splendor_pb2_grpc as pb_grpc

from .convert import Maxima
from .servicer import SplendorServicer
from .settings import Settings
from .slots import SearchSlots

log = logging.getLogger("splendor_ai.service")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["SplendorService"].full_name
CHEAP_WORKERS = 8  # threads for calls that do not search (catalogue, moves, health)


class Server:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.slots = SearchSlots(settings.max_concurrent)
        workers = settings.max_concurrent + CHEAP_WORKERS
        self._grpc = grpc.server(
            futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rpc"),
            # Beyond this many calls at once gRPC answers RESOURCE_EXHAUSTED: no queue.
            maximum_concurrent_rpcs=workers,
            options=[("grpc.so_reuseport", 0)],
        )
        maxima = Maxima(settings.max_iterations, settings.max_seconds, settings.max_threads, settings.max_nodes)
        pb_grpc.add_SplendorServiceServicer_to_server(SplendorServicer(maxima, self.slots), self._grpc)
        # Non-blocking: a client watching the health status does not hold a worker thread.
        self.health = health.HealthServicer(experimental_non_blocking=True,
                                            experimental_thread_pool=futures.ThreadPoolExecutor(max_workers=1))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self._grpc)
        reflection.enable_server_reflection(
            [SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME],
            self._grpc)
        self.port: int | None = None

    def start(self) -> int:
        address = f"{self.settings.host}:{self.settings.port}"
        try:
            self.port = self._grpc.add_insecure_port(address)
        except RuntimeError as exc:
            raise OSError(f"cannot listen on {address}: {exc}") from None
        if not self.port:
            raise OSError(f"cannot listen on {address}")
        self._grpc.start()
        for name in ("", SERVICE_NAME):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        return self.port

    def shutdown(self, grace: float | None = None) -> None:
        """Stop accepting calls; running searches get ``grace`` seconds, and are stopped a
        little before the end so that they can still answer."""
        grace = self.settings.grace if grace is None else grace
        self.health.enter_graceful_shutdown()
        self.slots.close()
        done = self._grpc.stop(grace)
        stop_at = grace * 0.8 if grace < 2.5 else grace - 0.5
        timer = threading.Timer(stop_at, self.slots.stop_all)
        timer.daemon = True
        timer.start()
        done.wait()
        timer.cancel()


def serve(settings: Settings) -> int:
    """Run until SIGTERM or SIGINT; returns the exit code (0)."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    server = Server(settings)
    port = server.start()
    s = settings
    log.info("listening on %s:%d (max_concurrent=%d max_iterations=%d max_seconds=%g max_threads=%d "
             "max_nodes=%d grace=%gs)", s.host, port, s.max_concurrent, s.max_iterations, s.max_seconds,
             s.max_threads, s.max_nodes, s.grace)
    stop = threading.Event()
    received = []

    def on_signal(signum, _frame):
        received.append(signal.Signals(signum).name)
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)
    while not stop.wait(0.5):
        pass
    log.info("%s: stopping; running searches get %gs", received[0], s.grace)
    server.shutdown()
    log.info("stopped")
    return 0
