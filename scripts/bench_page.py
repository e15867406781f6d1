"""Benchmark: the demo page's first load in headless Chromium: bytes and time to the first board.

    python scripts/bench_page.py [--loads 10] [--write [FILE]]

Starts one ``splendor-ai serve --http-port 0`` and opens ``/?game=base&seat=0&level=1&seed=N&start=1``
in Debian's chromium (headless, through chromium-driver and selenium, as the browser tests do)
with a fresh profile each time (an empty cache: a first visit; then a second visit in the same
profile), at a phone's width (390 px) and a desktop's (1,400 px). The page marks the moment its first board is drawn
(``performance.mark("splendor:first-board")``, after GetCatalog, NewGame and LegalActions);
the Resource Timing entries give each file's and each call's bytes on the wire. Prints the
figures; ``--write`` replaces the "web-page" section of BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile

from splendor_ai.bench.report import add_write_option, machine_line, report

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,900"]
WIDTHS = {390: 844, 1400: 900}
CONNECT_JS = 3695  # bytes of static/connect.js, the page's own Connect code until issue 49

# What the page loaded: the navigation and every resource (files and calls), and its marks.
ENTRIES = """
const nav = performance.getEntriesByType('navigation')[0];
const mark = performance.getEntriesByName('splendor:first-board')[0];
return {
  board: mark ? mark.startTime : null,
  domReady: nav.domContentLoadedEventEnd,
  entries: [nav, ...performance.getEntriesByType('resource')].map(e => ({
    name: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd,
    transfer: e.transferSize, body: e.encodedBodySize, decoded: e.decodedBodySize})),
};
"""


def _browser(profile: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def _until_board(driver, timeout: float) -> dict:
    import time

    deadline = time.monotonic() + timeout
    while True:
        got = driver.execute_script(ENTRIES)
        if got["board"] is not None:
            break
        if time.monotonic() > deadline:
            raise RuntimeError("the page drew no board in time: " + driver.find_element("id", "message").text)
        time.sleep(0.02)
    # the LegalActions reply may still be closing its timing entry: wait until it is in
    while not any(e["name"].endswith("/LegalActions") for e in got["entries"]):
        time.sleep(0.02)
        got = driver.execute_script(ENTRIES)
    return got


def first_load(url: str, width: int, seed: int, timeout: float = 60) -> tuple[dict, dict]:
    """One first visit (a fresh profile), then a second one in the same profile (its cache
    revalidated): the page's timing entries of each, once its first board is drawn."""
    with tempfile.TemporaryDirectory() as profile:
        driver = _browser(profile)
        try:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": WIDTHS[width], "deviceScaleFactor": 1, "mobile": width < 600})
            driver.get(f"{url}/?game=base&players=2&seat=0&level=1&seed={seed}&start=1")
            first = _until_board(driver, timeout)
            driver.get(f"{url}/?game=base&players=2&seat=0&level=1&seed={seed + 1000}&start=1")
            return first, _until_board(driver, timeout)
        finally:
            driver.quit()


def _kind(name: str) -> str:
    if name.startswith("/splendor.v1.SplendorService/"):
        return "call " + name.rsplit("/", 1)[1]
    return "/" if name == "/" else name.lstrip("/")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/bench_page.py", description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, default=10, help="first visits per width")
    add_write_option(ap)
    args = ap.parse_args(argv)
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        raise SystemExit("python scripts/bench_page.py needs Debian's chromium and chromium-driver "
                         "(apt-get install chromium chromium-driver) and selenium (the test extra)")

    from splendor_ai.bench.service import HttpServer

    load_before = os.getloadavg()[0]
    server = HttpServer()
    url = f"http://127.0.0.1:{server.http_port}"
    runs: dict[int, list[dict]] = {}
    again: dict[int, list[dict]] = {}  # the second visit of each profile
    try:
        first_load(url, 1400, 0)  # the server's first calls (imports, the catalog) are not a page's cost
        for width in WIDTHS:
            runs[width], again[width] = zip(*(first_load(url, width, seed) for seed in range(1, args.loads + 1)))
    finally:
        server.stop()
    load_after = os.getloadavg()[0]

    sample = runs[390][0]["entries"]
    files = [e for e in sample if not _kind(e["name"]).startswith("call ")]
    calls = [e for e in sample if _kind(e["name"]).startswith("call ")]
    total = sum(e["transfer"] for e in sample)
    static = sum(e["transfer"] for e in files)
    decoded = sum(e["decoded"] for e in files)
    bundle = sum(e["transfer"] for e in files if e["name"].endswith("splendor-ai-client.js"))
    revisit = statistics.median(sum(e["transfer"] for e in r["entries"] if not _kind(e["name"]).startswith("call "))
                                for r in again[390])
    rows = [f"| {_kind(e['name'])} | {e['transfer']:,} | {e['body']:,} | {e['decoded']:,} |" for e in files + calls]

    def timing(width):
        board = [r["board"] for r in runs[width]]
        dom = [r["domReady"] for r in runs[width]]
        # the calls before the first board, end of the last minus start of the first
        rpc = [max(e["end"] for e in r["entries"] if _kind(e["name"]).startswith("call "))
               - min(e["start"] for e in r["entries"] if _kind(e["name"]).startswith("call ")) for r in runs[width]]
        p50 = statistics.median(board)
        return (f"| {width} px | {p50:.0f} ms | {min(board):.0f} / {max(board):.0f} ms "
                f"| {statistics.median(dom):.0f} ms "
                f"| {statistics.median(rpc):.0f} ms ({100 * statistics.median(rpc) / p50:.0f}%) |")

    cmd = "python scripts/bench_page.py" + (f" --loads {args.loads}" if args.loads != 10 else "") + " --write"
    body = "\n".join([
        "## Web: the demo page's first load (headless Chromium)",
        "",
        f"Command: `{cmd}` ({machine_line()}). One server (`splendor-ai serve --http-port 0`), Debian's "
        f"chromium headless on this machine over loopback (no network throttling), a fresh profile for each of "
        f"{args.loads} first visits per width of `/?game=base&seat=0&level=1&seed=N&start=1`. Time to first "
        f"board: from the navigation's start to the page's `splendor:first-board` mark (the board drawn after "
        f"GetCatalog, NewGame and LegalActions). Load average (1 min) before / after: {load_before:.1f} / "
        f"{load_after:.1f}.",
        "",
        "| width | time to first board, p50 | min / max | DOMContentLoaded, p50 | its calls, first start to last "
        "end, p50 (share) |",
        "|---|---|---|---|---|",
        timing(390),
        timing(1400),
        "",
        f"Bytes on the wire (a first visit, 390 px; the page's files gzipped by the server): {total:,} in all, the "
        f"page's files {static:,} ({100 * static / total:.0f}%; {static / decoded:.2f}x their {decoded:,} bytes "
        f"unpacked), of which the TypeScript client's bundle {bundle:,} ({100 * bundle / total:.0f}% of all; "
        f"{bundle / CONNECT_JS:.0f}x the {CONNECT_JS:,} bytes of the hand-written `connect.js` it replaced, which "
        f"spoke JSON); its calls (protobuf bodies) {total - static:,}. A second visit in the same profile (the "
        f"browser revalidates each file with its ETag and gets 304, no body): the page's files {revisit:,.0f} "
        f"bytes (p50), {revisit / static:.2f}x the first visit's.",
        "",
        "| what | bytes transferred | body bytes (as sent) | body bytes (unpacked) |",
        "|---|---|---|---|",
        *rows,
    ])
    report(args, "web-page", body)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
