"""The README's `play` transcript, made by the program: runs `splendor-ai play` with the seed,
budget and input the README's transcript marker names, puts the typed input back after each
prompt, and writes the text between the markers (or, with --check, says whether it differs).

    python scripts/readme_transcript.py [--check] [README.md]
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

MARKER = re.compile(r"<!-- transcript: splendor-ai play (?P<args>[^<]*?) <<< \"(?P<input>[^\"]*)\" -->\n"
                    r"```text\n(?P<body>.*?)```\n<!-- /transcript -->", re.S)
PROMPT = "seat 0> "


def transcript(args: list[str], typed: list[str]) -> str:
    """The session as a person at the terminal sees it, from their first move to the last input."""
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([sys.executable, "-m", "splendor_ai.cli", "play", *args, "--record", f"{d}/game.json"],
                             input="".join(t + "\n" for t in typed), capture_output=True, text=True, timeout=300,
                             cwd=d, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})
    if out.returncode != 0:
        raise SystemExit(f"splendor-ai play failed ({out.returncode}):\n{out.stderr}")
    pieces = out.stdout.split(PROMPT)
    text = pieces[0]
    for t, piece in zip(typed, pieces[1:]):
        text += PROMPT + t + "\n" + piece
    start = text.index(PROMPT)  # from the first prompt: the opening board is the README's own
    end = text.rindex(PROMPT + typed[-1])  # up to the last input (quit)
    return text[start:end].rstrip("\n") + "\n"


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in argv
    argv = [a for a in argv if a != "--check"]
    path = Path(argv[0] if argv else Path(__file__).resolve().parents[1] / "README.md")
    readme = path.read_text()
    m = MARKER.search(readme)
    if not m:
        raise SystemExit(f"{path}: no transcript marker")
    typed = [t.strip() for t in m.group("input").split(",")]
    body = transcript(m.group("args").split(), typed)
    if check:
        if body != m.group("body"):
            print(f"{path}: the play transcript is stale: python scripts/readme_transcript.py", file=sys.stderr)
            return 1
        return 0
    path.write_text(readme[:m.start("body")] + body + readme[m.end("body"):])
    print(f"wrote the play transcript of {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
