"""What the browser tests of the demo page share: the server and Debian's chromium (headless,
through chromium-driver and selenium) at a phone's width (390 px), a laptop's (1,280 px) and a desktop's (1,400 px),
and helpers that wait for the page, tap the board as a player would, and read the board back.

A test module does ``from browser_helpers import *`` after its skip checks."""
import os
import shutil
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import ElementClickInterceptedException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from web_helpers import http_port

__all__ = ["By", "TIMEOUT", "WIDTHS", "app", "click", "legal", "pick", "play_by_board", "play_by_list", "resize",
           "screenshot", "settle", "site", "start", "wait", "browser"]

# The flags that work on these machines (no sandbox as root, no background networking).
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--window-size=1400,900"]
ARTIFACTS = Path(os.environ.get("SPLENDOR_AI_ARTIFACTS") or Path(__file__).resolve().parents[2] / "test-artifacts")
TIMEOUT = 60
# (width, height): a phone (an iPhone 12-15's CSS pixels), a laptop's screen and a desktop window
WIDTHS = {390: 844, 1280: 800, 1400: 900}


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


def resize(driver, width: int):
    """The viewport a phone (390), a laptop (1280) or a desktop (1400) gives the page: a desktop window cannot be
    made 390 px wide, so the width is emulated (Chrome's device metrics, as its devtools do)."""
    height = WIDTHS[width]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def errors_in_console(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"
            and "favicon" not in e["message"]]


def wait(driver, condition, what: str, timeout: float = TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(condition)
        if value:
            return value
        message = driver.find_element(By.ID, "message").text
        if message and "Nothing to undo" not in message:
            # the page may have done both (shown its message and met the condition, as a bad
            # link's page does in one task) between the two reads above: look once more
            value = driver.execute_script(condition)
            if value:
                return value
            raise AssertionError(f"waiting for {what}, the page says: {message}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.03)


def settle(driver):
    """Wait until the page is idle: the person's move, or the game over."""
    wait(driver, "return document.body.dataset.busy === '0' && window.splendorApp.position !== null && "
                 "(window.splendorApp.moves.length > 0 || window.splendorApp.status.gameOver)", "the person's turn")


def start(driver, site, query: str, width: int = 1400):
    resize(driver, width)
    driver.get(f"{site}/?{query}")
    wait(driver, "return document.body.dataset.ready === '1'", "the page")
    click(driver, driver.find_element(By.ID, "setup-button"))
    settle(driver)


def app(driver) -> dict:
    return driver.execute_script("const a = window.splendorApp; return {game: a.game, players: a.players, "
                                 "human: a.human, seed: a.seed, actions: a.actions, position: a.position, "
                                 "status: a.status, record: a.record(), moves: a.moves}")


def legal(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#moves button.move')].map(b => b.dataset.notation)")


def click(driver, element):
    """A tap: the element brought to the middle of the screen and clicked where a finger would
    (selenium refuses if something else, e.g. the chooser, covers it)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
    try:
        element.click()
    except ElementClickInterceptedException:
        driver.execute_script("window.scrollBy(0, -200)")
        element.click()


def pick(moves: list[str], turn: int = 0) -> str:
    """A sensible move, so that a game ends in reasonable time: buy, choose, return, take three;
    every few turns a reserve (base, Marvel; Duel: a gold first) or a privilege or replenish
    (Duel), so that every kind of tap is made."""
    for prefix in {1: ("gold", "reserve deck"), 5: ("privilege", "replenish"), 7: ("gold", "reserve "),
                   11: ("privilege", "replenish")}.get(turn % 12, ()):
        for m in moves:
            if m.startswith(prefix) and not (prefix == "reserve " and m.startswith("reserve deck")):
                return m
    for prefix in ("buy", "noble", "royal", "location", "joker", "token", "steal", "discard", "return"):
        for m in moves:
            if m.startswith(prefix):
                return m
    takes = [m for m in moves if m.startswith("take")]
    if takes:
        return max(takes, key=len)
    return moves[0]


def play_by_list(driver, notation: str):
    """Plays the move from the list (unfolding it first: on a phone it starts folded)."""
    if not driver.find_element(By.ID, "move-list").get_attribute("open"):
        click(driver, driver.find_element(By.CSS_SELECTOR, "#move-list summary"))
    click(driver, driver.find_element(By.CSS_SELECTOR, f'#moves button.move[data-notation="{notation}"]'))
    settle(driver)


def _taps(game: str, move: dict, human: int) -> list[str]:
    """The board elements a player taps for ``move`` (a LegalActions move as JSON), read from the
    move's own fields, not from the page's logic."""
    f = move[game]
    kind = f["kind"].replace("KIND_", "").lower()
    me, them = f'.seat[data-seat="{human}"]', f'.seat:not([data-seat="{human}"])'
    tokens = [k for k, n in (f.get("tokens") or {}).items() for _ in range(n)]
    if kind in ("buy", "reserve"):
        return [f'.rows [data-card="{f["card"]}"], {me} [data-card="{f["card"]}"]']
    if kind == "reserve_deck":
        return [f'[data-deck="{f["level"]}"]']
    if kind in ("noble", "location", "royal"):
        return [f'.top [data-{kind}="{f[kind]}"]']
    if kind == "replenish":
        return ["[data-bag]"]
    if game == "duel" and kind in ("take", "privilege", "gold", "token"):
        return [f'[data-cell="{c}"]' for c in f["cells"]]
    area = {"take": ".supply-tokens", "return": f"{me} .tokens", "discard": f"{me} .tokens", "steal": f"{them} .tokens",
            "joker": f"{me} .bonuses"}.get(kind)
    if area is None:
        return []  # pass: the move list only
    return [f'{area} [data-token="{k}"]' for k in tokens]


def play_by_board(driver, notation: str) -> str | None:
    """Plays the move by tapping the board, and the chooser where it opens; returns the move's
    kind ("take", "buy", ...), or None if the move has nothing on the board to tap (a pass),
    played from the list then."""
    a = app(driver)
    move = next(m for m in a["moves"] if m["notation"] == notation)
    taps = _taps(a["game"], move, a["human"])
    if not taps:
        play_by_list(driver, notation)
        return None
    before = len(a["actions"])
    for selector in taps:
        click(driver, driver.find_element(By.CSS_SELECTOR, f"#board :is({selector})"))
        if driver.execute_script("return document.body.dataset.busy === '1' || "
                                 f"window.splendorApp.actions.length > {before}"):
            break
    else:
        chooser = driver.find_element(By.ID, "chooser")
        assert chooser.is_displayed(), f"tapping {taps} neither played {notation} nor opened the chooser"
        click(driver, chooser.find_element(By.CSS_SELECTOR, f'button.move[data-notation="{notation}"]'))
    settle(driver)
    played = app(driver)["actions"][before]
    assert played == notation, (played, notation)
    return move[a["game"]]["kind"].replace("KIND_", "").lower()


def screenshot(driver, name: str) -> Path:
    """The whole page (its full height) as a PNG in test-artifacts/web/ for people to look at."""
    ARTIFACTS.joinpath("web").mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "web" / name
    width = driver.execute_script("return window.innerWidth")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": min(height, 6000), "deviceScaleFactor": 1, "mobile": width < 600})
    driver.save_screenshot(str(path))
    resize(driver, width)
    assert path.stat().st_size > 10_000
    return path
