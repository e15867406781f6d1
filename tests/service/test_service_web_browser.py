"""The demo page in a real browser: Debian's chromium, headless, driven by selenium through
chromium-driver. A whole base game and a few Duel and Marvel turns are played by clicking;
hint, undo, the chart and the record are used; after the moves the board the page shows is
read back and checked against the position the server returned and against the record
replayed by the rules. Screenshots of the board are saved in test-artifacts/web/ (or
$SPLENDOR_AI_ARTIFACTS) for people to look at.

Skipped, with the reason, where chromium, chromium-driver or selenium is missing
(`apt-get install chromium chromium-driver`; .ci/run installs them).
"""
import json
import os
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")
pytest.importorskip("selenium", reason="the browser tests need selenium (the test extra)")
if not (shutil.which("chromium") and shutil.which("chromedriver")):
    pytest.skip("the browser tests need Debian's chromium and chromium-driver "
                "(apt-get install chromium chromium-driver; .ci/run installs them)", allow_module_level=True)

from google.protobuf import json_format  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from splendor.v1 import splendor_pb2 as pb  # noqa: E402
from web_helpers import http_port  # noqa: E402

from splendor_ai.games import load_game  # noqa: E402
from splendor_ai.records import replay  # noqa: E402
from splendor_ai.service.convert import encode_position  # noqa: E402

# The flags that work on these machines (no sandbox as root, no background networking).
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--window-size=1400,1300"]
ARTIFACTS = Path(os.environ.get("SPLENDOR_AI_ARTIFACTS") or Path(__file__).resolve().parents[2] / "test-artifacts")
TIMEOUT = 60


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from conftest import ServerProcess

    srv = ServerProcess(tmp_path_factory.mktemp("browser") / "server.log", "--http-port", "0", "--max-concurrent",
                        "2", "--max-threads", "1", "--grace", "1")
    yield f"http://127.0.0.1:{http_port(srv)}"
    srv.kill()
    assert "Traceback" not in srv.text() and "outcome=INTERNAL" not in srv.text(), srv.text()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_script_timeout(TIMEOUT)
    yield driver
    driver.quit()


# --------------------------------------------------------------------------- page helpers
def wait(driver, condition, what: str, timeout: float = TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(condition)
        if value:
            return value
        message = driver.find_element(By.ID, "message").text
        if message and "Nothing to undo" not in message:
            raise AssertionError(f"waiting for {what}, the page says: {message}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def settle(driver):
    """Wait until the page is idle: the person's move, or the game over."""
    wait(driver, "return document.body.dataset.busy === '0' && window.splendorApp.position !== null && "
                 "(window.splendorApp.moves.length > 0 || window.splendorApp.status.gameOver)", "the person's turn")


def start(driver, site, query: str):
    driver.get(f"{site}/?{query}")
    wait(driver, "return document.body.dataset.ready === '1'", "the page")
    driver.find_element(By.ID, "setup-button").click()
    settle(driver)


def legal(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#moves button.move')].map(b => b.dataset.notation)")


def click_move(driver, notation: str):
    button = driver.find_element(By.CSS_SELECTOR, f'#moves button.move[data-notation="{notation}"]')
    button.click()
    settle(driver)


def pick(moves: list[str]) -> str:
    """A sensible move, so that a game ends in reasonable time: buy, choose, return, take three."""
    for prefix in ("buy", "noble", "royal", "location", "joker", "token", "steal", "discard", "return"):
        for m in moves:
            if m.startswith(prefix):
                return m
    takes = [m for m in moves if m.startswith("take")]
    if takes:
        return max(takes, key=len)
    return moves[0]


def app(driver) -> dict:
    return driver.execute_script("const a = window.splendorApp; return {game: a.game, players: a.players, "
                                 "human: a.human, seed: a.seed, actions: a.actions, position: a.position, "
                                 "status: a.status, record: a.record()}")


SHOWN = """
const b = document.querySelector('#board .board');
const chips = (root) => Object.fromEntries([...root.querySelectorAll('.chip')].map(c => [c.dataset.token, +c.textContent]));
return {
  rows: [...b.querySelectorAll('.rows .row')].map(r => ({level: +r.dataset.row,
     deck: +r.querySelector('.deck-size').textContent, cards: [...r.querySelectorAll('.card')].map(c => c.classList.contains('empty-slot') ? -1 : +c.dataset.card)})),
  supply: b.querySelector('.supply-tokens') ? chips(b.querySelector('.supply-tokens')) : null,
  cells: [...b.querySelectorAll('.duel-board .cell')].map(c => c.dataset.token),
  tops: [...b.querySelectorAll('.top [data-noble], .top [data-location], .top [data-royal]')].map(
     n => +(n.dataset.noble ?? n.dataset.location ?? n.dataset.royal)),
  seats: [...b.querySelectorAll('.seat')].map(s => ({seat: +s.dataset.seat, points: +s.querySelector('.points').dataset.points,
     tokens: chips(s.querySelector('.tokens')),
     reserved: [...s.querySelectorAll('.reserved .card')].map(c => c.dataset.card === undefined ? null : +c.dataset.card)})),
};
"""


def expected_board(game: str, state, human: int) -> dict:
    """What the page must show for ``state``: the public board and the person's own reserves."""
    msg = getattr(encode_position(state), game)
    kinds = [k for k, _ in {"base": pb.Tokens, "duel": pb.DuelTokens, "marvel": pb.MarvelTokens}[game].DESCRIPTOR
             .fields_by_name.items()]
    rows = msg.pyramid if game == "duel" else msg.board
    out = {
        "rows": [{"level": level, "deck": msg.deck_sizes[level - 1], "cards": list(rows[level - 1].cards)}
                 for level in range(len(rows), 0, -1)],
        "supply": None if game == "duel" else {k: getattr(msg.supply, k) for k in kinds},
        "cells": [kinds[c] if c >= 0 else "empty" for c in msg.board] if game == "duel" else [],
        "tops": list({"base": lambda: msg.nobles, "marvel": lambda: msg.locations, "duel": lambda: msg.royals}[game]()),
        "seats": [],
    }
    for s, seat in enumerate(msg.seats):
        reserved = [r.card if r.HasField("card") and (s == human or not r.blind) else None for r in seat.reserved]
        out["seats"].append({"seat": s, "points": seat.points, "tokens": {k: getattr(seat.tokens, k) for k in kinds},
                             "reserved": reserved})
    return out


def check_board(driver):
    """The board on screen = the position the server returned = the record replayed by the rules."""
    a = app(driver)
    states = replay(a["record"])
    state = states[-1]
    assert json_format.ParseDict(a["position"], pb.Position()) == encode_position(state)
    assert driver.execute_script(SHOWN) == expected_board(a["game"], state, a["human"])
    return a, state


def screenshot(driver, name: str):
    ARTIFACTS.joinpath("web").mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "web" / name
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000
    return path


# --------------------------------------------------------------------------- tests
def test_a_whole_base_game_by_clicking(site, browser):
    d = browser
    start(d, site, "game=base&players=2&seat=0&level=1&seed=11&hint=300&chart=20")
    human_turns = 0
    while not app(d)["status"]["gameOver"]:
        moves = legal(d)
        assert moves, "the person is to move but no move is offered"
        if human_turns == 2:
            # a click on a face-up card offers that card's moves only
            card = d.find_element(By.CSS_SELECTOR, "#board .rows .card[data-card]")
            card_id = int(card.get_attribute("data-card"))
            card.click()
            filtered = legal(d)
            assert filtered and all(str(card_id) in m.split() for m in filtered), filtered
            d.find_element(By.ID, "show-all").click()
            assert legal(d) == moves
        if human_turns == 3:
            # undo: back to exactly the position before the person's last move
            before = (app(d)["actions"], d.execute_script(SHOWN))
            click_move(d, pick(moves))
            assert len(app(d)["actions"]) > len(before[0])
            d.find_element(By.ID, "undo-button").click()
            settle(d)
            assert (app(d)["actions"], d.execute_script(SHOWN)) == before
            assert legal(d) == moves
        if human_turns == 4:
            # hint: the engine's top 3 with their win probabilities, each playable by a click
            played = len(app(d)["actions"])
            d.find_element(By.ID, "hint-button").click()
            wait(d, "return document.querySelector('#hint').textContent.includes('top moves')", "the hint")
            lines = d.execute_script("return [...document.querySelectorAll('#hint li')].map(li => "
                                     "[li.dataset.notation, li.querySelector('.prob').textContent])")
            assert 1 <= len(lines) <= 3
            for notation, prob in lines:
                assert notation in moves
                assert 0.0 <= float(prob.split()[-1].rstrip("%")) <= 100.0
            d.find_element(By.CSS_SELECTOR, "#hint li button").click()
            settle(d)
            assert app(d)["record"]["actions"][played] == lines[0][0]
            human_turns += 1
            continue
        if human_turns % 10 == 0:
            check_board(d)
        click_move(d, pick(moves))
        human_turns += 1
        assert human_turns < 150, "the game does not end"
    a, state = check_board(d)
    assert state.is_terminal() and a["status"]["returns"] == state.returns()
    assert d.find_element(By.ID, "status").text.startswith("Game over: ")
    # the chart: one line per seat, from AnalyzeGame of every decision, and your accuracy
    wait(d, "return document.querySelectorAll('#chart svg polyline').length === 2", "the chart")
    points = d.execute_script("return window.splendorApp.chart")
    assert [q["x"] for q in points] == list(range(len(a["actions"]) + 1))
    assert points[-1]["p"] == state.returns() and all(0 <= p <= 1 for q in points for p in q["p"])
    assert d.find_element(By.CSS_SELECTOR, "#chart .summary").text.startswith("Your accuracy: ")
    # the record: what "Download record" saves, in the format of `splendor-ai play`
    d.find_element(By.ID, "download-button").click()
    text = d.execute_async_script("const done = arguments[0]; fetch(document.querySelector('#download-link').href)"
                                  ".then(r => r.text()).then(done)")
    record = json.loads(text)
    assert record == a["record"]
    assert record["format"] == "splendor-ai/record" and record["version"] == 1 and record["seats"] == ["human",
                                                                                                       "level:1"]
    assert record["finished"] is True and record["returns"] == state.returns()
    replayed = replay(record)[-1]
    assert replayed.is_terminal() and replayed.to_position() == state.to_position()
    assert load_game("base", 2).new_initial_state(11).to_position() == replay(record)[0].to_position()
    screenshot(d, "board-base.png")


@pytest.mark.parametrize("game, query", [
    ("duel", "game=duel&seat=1&level=1&seed=5"),
    ("marvel", "game=marvel&players=3&seat=1&level=1&seed=6"),
])
def test_a_few_turns_of_duel_and_marvel(site, browser, game, query):
    d = browser
    start(d, site, query)
    a = app(d)
    assert a["game"] == game and a["actions"], "the AI (seat 0) moved first"
    check_board(d)
    for turn in range(3):
        moves = legal(d)
        if turn == 0 and game == "duel":
            # a click on a token of the 5x5 board offers the moves that use that cell
            cell = d.find_element(By.CSS_SELECTOR, "#board .duel-board .cell:not(.t-empty)")
            index = int(cell.get_attribute("data-cell"))
            cell.click()
            filtered = legal(d)
            assert filtered and all(f"{'abcde'[index % 5]}{index // 5 + 1}" in m.split() for m in filtered)
            click_move(d, pick(filtered))
        else:
            click_move(d, pick(moves))
        check_board(d)
        if app(d)["status"]["gameOver"]:
            break
    assert len(app(d)["actions"]) >= 4
    screenshot(d, f"board-{game}.png")


def test_a_server_error_is_shown_and_the_page_goes_on(site, browser):
    d = browser
    d.get(f"{site}/?game=base&seat=1&seed=3")
    wait(d, "return document.body.dataset.ready === '1'", "the page")
    # a level the server refuses: its answer is shown, naming the field, and the page stays usable
    d.execute_script("const s = document.querySelector('#setup [name=level]'); s.append(new Option('11', '11'));"
                     "s.value = '11';")
    d.find_element(By.ID, "setup-button").click()
    deadline = time.monotonic() + TIMEOUT
    while not d.find_element(By.ID, "message").text:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    text = d.find_element(By.ID, "message").text
    assert text.startswith("The server answered invalid_argument: level") and "11" in text
    wait(d, "return document.body.dataset.busy === '0'", "the page to be idle again")
    assert d.find_element(By.ID, "setup-button").is_enabled()
    # and a good game starts from the same page
    d.execute_script("document.querySelector('#setup [name=level]').value = '1'")
    d.find_element(By.ID, "setup-button").click()
    settle(d)
    assert legal(d)
