"""BENCHMARKS.md opens with one screen of headline figures that stay true to their sections."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "BENCHMARKS.md").read_text()


def headline_rows():
    block = TEXT.split("<!-- headline -->", 1)[1].split("<!-- /headline -->", 1)[0]
    rows = [r for r in block.strip().splitlines()[2:] if r.startswith("|")]
    out = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        out.append(cells)
    return out


def section(name: str) -> str:
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    assert start in TEXT and end in TEXT, f"BENCHMARKS.md has no section {name!r}"
    return TEXT.split(start, 1)[1].split(end, 1)[0]


def test_the_headline_is_the_first_screen():
    lines = TEXT.splitlines()
    assert lines[0] == "# Benchmarks"
    end = next(i for i, ln in enumerate(lines) if ln == "<!-- /headline -->")
    assert end < 40, "the headline table should fit one screen at the top"
    assert len(headline_rows()) >= 8


def test_every_headline_value_is_what_its_section_says():
    for figure, value, baseline, date, command in headline_rows():
        m = re.search(r"\(([\w.-]+)\)$", command)
        assert m, f"{figure!r}: the command cell ends with its section's name in parentheses"
        body = section(m[1])
        number = re.match(r"[\d.,]+%?", value)[0]  # "97.0% of 200" -> "97.0%", "3.64 µs" -> "3.64"
        assert number in body, f"{figure!r}: {number!r} is not in section {m[1]!r}"
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date), f"{figure!r}: date {date!r}"
        assert date in body, f"{figure!r}: the section {m[1]!r} was not measured on {date}"
        for ratio in re.findall(r"\d[\d.,]*x|\d[\d.]*%", baseline):
            if "target" in baseline or "fair share" in baseline:
                continue
            assert ratio.rstrip("x") in body, f"{figure!r}: ratio {ratio!r} is not in section {m[1]!r}"
