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
    for figure, value, baseline, net, date, command in headline_rows():
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


def _shipped() -> dict[str, str]:
    import hashlib

    nets = (ROOT / "splendor_ai" / "nets").glob("*.splnn")
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in nets}


def test_every_headline_net_is_the_one_shipped_now():
    """A figure measured with a net that is no longer shipped fails here until it is measured again."""
    shipped = _shipped()
    for figure, value, baseline, net, date, command in headline_rows():
        if net == "—":
            continue
        named = re.findall(r"`([\w.-]+\.splnn)` \(`([0-9a-f]{16})`\)", net)
        assert named, f"{figure!r}: the net cell names `file.splnn` (`checksum`), or is —: {net!r}"
        for name, checksum in named:
            assert shipped.get(name) == checksum, (f"{figure!r} was measured with {name} {checksum}; the shipped "
                                                   f"{name} is {shipped.get(name)}: measure it again")
            assert checksum in section(re.search(r"\(([\w.-]+)\)$", command)[1]) or name in TEXT, figure


def test_every_shipped_net_went_through_the_ship_gate_as_it_is_now():
    """A net shipped (or its header changed) without `splendor-ai bench gate` fails here: its
    training history and BENCHMARKS.md hold a gate table of the shipped file's exact checksum,
    with the decision the gate came to (issue 69; docs/learned.md, "The ship gate")."""
    for name, checksum in sorted(_shipped().items()):
        stem = name.removesuffix(".splnn")
        history = (ROOT / "training" / "history" / f"{stem}.md").read_text()
        tables = re.findall(rf"<!-- bench:gate-[\w-]+-{checksum}-[\d.]+s -->(.*?)<!-- /bench:", history, re.S)
        assert tables, f"{name} ({checksum}) has no gate table in training/history/{stem}.md: gate it"
        assert all(re.search(r"Decision, at equal time: \*\*(ship|do not ship)\*\*", t) for t in tables), name
        assert f"{name} ({checksum})" in TEXT, f"BENCHMARKS.md has no gate of {name} ({checksum})"


def test_the_sections_stand_in_subject_order():
    from splendor_ai.bench.report import SUBJECTS, subject_of

    order = []
    for line in TEXT.splitlines():
        if line.startswith("# ") and line != "# Benchmarks":
            order.append(line[2:])
    expected = list(dict.fromkeys(subject for _, subject in SUBJECTS))
    assert order == expected, f"subjects {order}, expected {expected}"
    current = None
    for line in TEXT.splitlines():
        if line.startswith("# ") and line != "# Benchmarks":
            current = line[2:]
        m = re.match(r"<!-- bench:([\w.-]+) -->", line)
        if m:
            assert subject_of(m[1]) == current, f"section {m[1]} stands under {current}, not {subject_of(m[1])}"


def test_a_new_section_goes_to_the_end_of_its_subject(tmp_path):
    from splendor_ai.bench.report import write_section

    path = tmp_path / "B.md"
    path.write_text("# Benchmarks\n\n# Rules\n\nr\n\n# Search\n\n<!-- bench:search -->\nx\n<!-- /bench:search -->\n"
                    "\n# Nets\n")
    write_section(path, "thrown-wins", "## thrown")
    write_section(path, "core-x", "## core x")
    text = path.read_text()
    assert text.index("bench:core-x") < text.index("# Search") < text.index("bench:search") < \
        text.index("bench:thrown-wins") < text.index("# Nets")
    write_section(path, "thrown-wins", "## thrown again")
    assert path.read_text().count("<!-- bench:thrown-wins -->") == 1 and "thrown again" in path.read_text()


def test_the_readme_times_the_tests_as_the_repo_section_measured_them():
    """README's quick-tier and whole-suite times are the `repo` section's (scripts/bench_repo.py
    --tests writes them), not figures typed in once and left to drift."""
    body = section("repo")
    date = re.search(r"Command: `[^`]*` \([^)]*(\d{4}-\d{2}-\d{2})\)", body)[1]
    quick = re.search(r"The quick tier \(`pytest -m [^`]*`, this tree\): (\d+) s", body)[1]
    full = int(re.search(r"The whole suite \(`pytest`, as CI runs it[^)]*\): (\d+) s", body)[1])
    one = int(re.search(r"in one process \(`pytest -n 0`\): (\d+) s", body)[1])
    readme = " ".join((ROOT / "README.md").read_text().split())
    said = re.search(r"\((\d+) s measured, (\d{4}-\d{2}-\d{2}); the whole suite (\d+) min (\d+) s in two "
                     r"processes, (\d+) min (\d+) s in one: BENCHMARKS\.md, `repo`\)", readme)
    assert said, "README.md: the quick tier's sentence no longer cites BENCHMARKS.md's `repo` figures"
    assert (said[1], said[2]) == (quick, date)
    assert int(said[3]) * 60 + int(said[4]) == full and int(said[5]) * 60 + int(said[6]) == one
