"""A raw HTTP/2 client of the gRPC port, for the attack tests and ``bench deploy --part hostile``:
streams opened and reset before their request, requests never sent, responses never read.

It speaks HTTP/2 through ``h2`` (the python-hyper project's protocol library; a test
dependency), not through gRPC, so that it can do what a well-behaved gRPC client never does.
127.0.0.1 only: it is pointed at a server of the test's own.
"""
from __future__ import annotations

import socket
import struct

SERVICE = "splendor.v1.SplendorService"


def grpc_frame(message: bytes) -> bytes:
    """One gRPC message on the wire: not compressed, its length, its bytes."""
    return struct.pack(">BI", 0, len(message)) + message


class RawConnection:
    """One HTTP/2 connection. ``window`` is the initial flow-control window this client gives
    each stream: 0 means the server can send no message at all on it (a client that never
    reads)."""

    def __init__(self, port: int, *, window: int | None = None, host: str = "127.0.0.1", timeout: float = 10.0):
        from h2.config import H2Configuration
        from h2.connection import H2Connection
        from h2.settings import SettingCodes

        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.conn = H2Connection(H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        if window is not None:
            self.conn.update_settings({SettingCodes.INITIAL_WINDOW_SIZE: window})
        self.authority = f"{host}:{port}"
        self.flush()

    def open(self, method: str, *, token: str | None = None, timeout_ms: int | None = None) -> int:
        """HEADERS for a call of ``method`` (its request still to come); returns the stream id."""
        sid = self.conn.get_next_available_stream_id()
        headers = [(":method", "POST"), (":scheme", "http"), (":path", f"/{SERVICE}/{method}"),
                   (":authority", self.authority), ("content-type", "application/grpc"), ("te", "trailers")]
        if token is not None:
            headers.append(("authorization", f"Bearer {token}"))
        if timeout_ms is not None:
            headers.append(("grpc-timeout", f"{timeout_ms}m"))
        self.conn.send_headers(sid, headers)
        return sid

    def send(self, sid: int, message: bytes, end: bool = True) -> None:
        """The call's request message (and the end of the client's side)."""
        self.conn.send_data(sid, grpc_frame(message), end_stream=end)

    def reset(self, sid: int) -> None:
        from h2.errors import ErrorCodes

        self.conn.reset_stream(sid, ErrorCodes.CANCEL)

    def flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def read(self, seconds: float) -> list:
        """The events that arrive within ``seconds`` (settings and pings are acknowledged, no
        data is: the windows stay as they are)."""
        import time

        events = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except (socket.timeout, BlockingIOError):
                break
            except OSError:
                break
            if not data:
                break
            events += self.conn.receive_data(data)
            self.flush()
        return events

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
