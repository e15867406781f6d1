"""Calls to the HTTP port as a browser (or curl) makes them: Connect with JSON, Connect
streams, gRPC-Web. Plain http.client, so that the tests see the bytes on the wire."""
from __future__ import annotations

import base64
import http.client
import json
import re
import struct

SERVICE = "splendor.v1.SplendorService"


def http_port(server) -> int:
    """The HTTP port a ServerProcess logged."""
    m = re.search(r"demo page on https?://\S+?:(\d+)/", server.text())
    assert m, "the server did not log its HTTP port:\n" + server.text()
    return int(m.group(1))


class Http:
    def __init__(self, port: int, host: str = "127.0.0.1"):
        self.host, self.port = host, port

    def request(self, method: str, path: str, body: bytes = b"", headers=None, timeout: float = 60):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            res = conn.getresponse()
            return res.status, {k.lower(): v for k, v in res.getheaders()}, res.read()
        finally:
            conn.close()

    def unary(self, rpc: str, message: dict, headers=None, timeout: float = 60):
        """(HTTP status, JSON body) of a Connect unary call with a JSON body."""
        h = {"content-type": "application/json", **(headers or {})}
        status, _, body = self.request("POST", f"/{SERVICE}/{rpc}", json.dumps(message).encode(), h, timeout)
        return status, json.loads(body)

    def call(self, rpc: str, message: dict, **kw) -> dict:
        status, body = self.unary(rpc, message, **kw)
        assert status == 200, (status, body)
        return body

    def stream(self, rpc: str, message: dict, headers=None, timeout: float = 60):
        """(messages, end-of-stream JSON) of a Connect server stream with JSON."""
        payload = json.dumps(message).encode()
        h = {"content-type": "application/connect+json", **(headers or {})}
        status, _, body = self.request("POST", f"/{SERVICE}/{rpc}", struct.pack(">BI", 0, len(payload)) + payload,
                                       h, timeout)
        assert status == 200, (status, body)
        messages, end = [], None
        for flags, data in frames(body):
            if flags & 2:
                end = json.loads(data)
            else:
                messages.append(json.loads(data))
        assert end is not None, "no end-of-stream message"
        return messages, end

    def grpc_web(self, rpc: str, message_bytes: bytes, headers=None):
        """(data frames, trailers dict) of a gRPC-Web call with binary protobuf."""
        h = {"content-type": "application/grpc-web+proto", "x-grpc-web": "1", **(headers or {})}
        status, response_headers, body = self.request(
            "POST", f"/{SERVICE}/{rpc}", struct.pack(">BI", 0, len(message_bytes)) + message_bytes, h)
        assert status == 200, (status, body)
        data, trailers = [], dict(
            (k, v) for k, v in response_headers.items() if k.startswith("grpc-"))  # a trailers-only reply
        for flags, payload in frames(body):
            if flags & 0x80:
                for line in payload.decode().strip().split("\r\n"):
                    key, _, value = line.partition(":")
                    trailers[key.strip().lower()] = value.strip()
            else:
                data.append(payload)
        return data, trailers


def frames(body: bytes):
    """The (flags, payload) frames of an enveloped body (Connect streams, gRPC-Web)."""
    i = 0
    while i < len(body):
        flags, length = struct.unpack(">BI", body[i:i + 5])
        yield flags, body[i + 5:i + 5 + length]
        i += 5 + length


def detail(error: dict, cls):
    """The first detail of a Connect error of protobuf class ``cls``."""
    for d in error.get("details", []):
        if d["type"] == cls.DESCRIPTOR.full_name:
            return cls.FromString(base64.b64decode(d["value"] + "=" * (-len(d["value"]) % 4)))
    raise AssertionError(f"no {cls.DESCRIPTOR.full_name} in {error}")
