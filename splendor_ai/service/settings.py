"""The server's settings: flags of ``splendor-ai serve`` and environment variables.

Kept apart from server.py so that the command line can show them without loading gRPC.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields

DEFAULT_PORT = 50551


def _cores() -> int:
    return os.cpu_count() or 1


@dataclass
class Settings:
    host: str = "[::]"
    port: int = DEFAULT_PORT
    max_concurrent: int = 0  # 0 = the number of cores
    max_iterations: int = 2_000_000
    max_seconds: float = 60.0
    max_threads: int = 0  # 0 = the number of cores
    max_nodes: int = 2_000_000  # per search tree (32 bytes a node)
    grace: float = 10.0

    def __post_init__(self):
        self.max_concurrent = self.max_concurrent or _cores()
        self.max_threads = self.max_threads or _cores()
        checks = [("port", 0 <= self.port <= 65535), ("max_concurrent", self.max_concurrent >= 1),
                  ("max_iterations", self.max_iterations >= 1), ("max_seconds", self.max_seconds > 0),
                  ("max_threads", 1 <= self.max_threads <= 64), ("max_nodes", self.max_nodes >= 1000),
                  ("grace", self.grace >= 0)]
        for name, ok in checks:
            if not ok:
                raise ValueError(f"{name}: {getattr(self, name)!r} is out of range")

    @staticmethod
    def env_name(name: str) -> str:
        return "SPLENDOR_AI_" + name.upper()

    @classmethod
    def env_defaults(cls, environ=os.environ) -> dict:
        """The settings given by environment variables (a bad value raises ValueError)."""
        out = {}
        for f in fields(cls):
            raw = environ.get(cls.env_name(f.name))
            if raw is None or raw == "":
                continue
            kind = {"str": str, "int": int, "float": float}[f.type if isinstance(f.type, str) else f.type.__name__]
            try:
                out[f.name] = kind(raw)
            except ValueError:
                raise ValueError(f"{cls.env_name(f.name)}={raw!r}: expected {kind.__name__}") from None
        return out
