"""BENCHMARKS.md is written in sections, one per benchmark, each with the command that made it."""
from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path


def machine_line() -> str:
    """Where a figure was measured. The net kernel is there because it alone changes a net
    iteration's cost about 2x between machines of one architecture (AVX-512 VNNI against AVX2),
    and with it every equal-time budget."""
    from .._core import nn as core_nn

    return (
        f"{platform.machine()}, {os.cpu_count()} cores, net kernel {core_nn.default_kernel()}, "
        f"Python {platform.python_version()}, {datetime.date.today().isoformat()}"
    )


# BENCHMARKS.md's subjects, in dependency order: a section's name -> its subject (first match).
SUBJECTS = [("core", "Rules"), ("search", "Search"), ("scaling", "Search"), ("turns", "Search"),
            ("thrown", "Search"), ("strength-", "Search"), ("strength", "Search"), ("learned-speed", "Nets"),
            ("learned-int8", "Nets"), ("gate", "Strength"), ("levels", "Strength"), ("learned-strength", "Strength"),
            ("reasons", "Analysis"), ("analysis", "Analysis"), ("service", "Service"), ("web", "Web"),
            ("deploy", "Deployment"), ("repo", "Repository")]


def shipped_net_named(game: str, players: int) -> str:
    """The net the search of a game and player count uses by default, as a section names it:
    its file name and checksum (BENCHMARKS.md's headline `net` column writes it the same way)."""
    from .. import nn

    net = nn.shipped_net(game, players)
    return f"`{net.name}` (`{net.checksum}`)" if net is not None else "(none: the heuristic search)"


def subject_of(name: str) -> str | None:
    best = None
    for prefix, subject in SUBJECTS:  # the longest prefix that names it wins
        if name.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, subject)
    return best[1] if best else None


def write_section(path: str | os.PathLike, name: str, body: str) -> None:
    """Replace the section ``name`` of the Markdown file at ``path``, or add it at the end of its
    subject (the ``# Subject`` headings of BENCHMARKS.md; at the end of the file without one)."""
    path = Path(path)
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    text = path.read_text() if path.exists() else (
        "# Benchmarks\n\nFigures are written by the commands shown with them; "
        "re-run a command to refresh its section.\n")
    block = f"{start}\n{body.rstrip()}\n{end}"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        _, after = rest.split(end, 1)
        text = before + block + after
    else:
        subject = subject_of(name)
        heading = f"\n# {subject}\n"
        if subject is not None and heading in text:
            at = text.index(heading) + len(heading)
            following = text.find("\n# ", at)  # the next subject's heading
            if following < 0:
                text = text.rstrip() + "\n\n" + block + "\n"
            else:
                text = text[:following].rstrip() + "\n\n" + block + "\n" + text[following:]
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)


def add_write_option(ap) -> None:
    """``--write [FILE]``: also write the figures' section to FILE (BENCHMARKS.md in the current
    folder when no FILE is named). Without it a bench only prints."""
    ap.add_argument("--write", nargs="?", const="BENCHMARKS.md", default=None, metavar="FILE",
                    help="also write the section to FILE (default: BENCHMARKS.md here); without it, only print")


def report(args, name: str, body: str) -> None:
    """Print a bench's section; write it to ``args.write`` when asked (--write)."""
    print()
    print(body)
    if args.write:
        write_section(args.write, name, body)
        print(f"\nwrote the '{name}' section of {args.write}")
