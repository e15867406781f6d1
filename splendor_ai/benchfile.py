"""BENCHMARKS.md is written in sections, one per benchmark, each with the command that made it."""
from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path


def machine_line() -> str:
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{datetime.date.today().isoformat()}"
    )


def write_section(path: str | os.PathLike, name: str, body: str) -> None:
    """Replace (or append) the section ``name`` of the Markdown file at ``path``."""
    path = Path(path)
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    text = path.read_text() if path.exists() else "# Benchmarks\n\nFigures are written by the commands shown with them; re-run a command to refresh its section.\n"
    block = f"{start}\n{body.rstrip()}\n{end}"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        _, after = rest.split(end, 1)
        text = before + block + after
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)
