"""The demo page's other parts in Chromium (test_service_web_browser.py plays the games): a bad
link is named in a visible message, without a JavaScript error, and the page stays usable; a
server error is shown; at a phone's 390 px nothing is wider than the screen and every tap
target is about a finger wide. Skipped, with the reason, where chromium, chromium-driver or
selenium is missing (`apt-get install chromium chromium-driver`; .ci/run installs them)."""
import shutil
import time

import pytest

pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")
pytest.importorskip("selenium", reason="the browser tests need selenium (the test extra)")
if not (shutil.which("chromium") and shutil.which("chromedriver")):
    pytest.skip("the browser tests need Debian's chromium and chromium-driver "
                "(apt-get install chromium chromium-driver; .ci/run installs them)", allow_module_level=True)

from browser_helpers import *  # noqa: E402,F403
from browser_helpers import errors_in_console  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

# (the link's query, what the message must say, the form's values the good parameters set)
BAD_LINKS = [
    ("players=9&start=1", 'players="9": Splendor takes 2 to 4 players', {"game": "base", "players": "2"}),
    ("game=chess&start=1", 'game="chess": no such game (one of base, duel, marvel)', {"game": "base"}),
    ("game=duel&players=3&start=1", 'players="3": Splendor Duel is for 2 players', {"game": "duel", "players": "2"}),
    ("game=marvel&players=4&seat=4&start=1", 'seat="4": your seat is 0 to 3 (4 players)',
     {"game": "marvel", "players": "4", "seat": "0"}),
    ("seat=-1&level=3", 'seat="-1": your seat is 0 to 1', {"level": "3"}),
    ("level=0&start=1", "level=\"0\": the AI's level is a whole number from 1 to 10", {"level": "3"}),
    ("level=easy&seed=7", "level=\"easy\": the AI's level is a whole number from 1 to 10", {"seed": "7"}),
    ("seed=-5&start=1", 'seed="-5": the seed is a whole number', {"seed": ""}),
    ("hint=0&chart=x", 'hint="0": a number of search iterations', {"hint": "2000", "chart": "2000"}),
    ("start=yes", 'start="yes": 1 starts the game at once', {}),
    ("plyers=3&start=1", "plyers: not a parameter of this page", {"players": "2"}),
]


def form(driver) -> dict:
    return driver.execute_script("const f = document.querySelector('#setup'); return Object.fromEntries(['game', "
                                 "'players', 'seat', 'level', 'seed', 'hint', 'chart'].map(n => [n, f[n].value]))")


@pytest.mark.parametrize("query, says, values", BAD_LINKS, ids=[q for q, _, _ in BAD_LINKS])
def test_a_bad_link_is_named_and_the_page_stays_usable(site, browser, query, says, values):
    d = browser
    resize(d, 390)
    d.get_log("browser")  # drop what earlier pages logged
    d.get(f"{site}/?{query}")
    wait(d, "return document.body.dataset.ready === '1'", "the page")
    message = d.find_element(By.ID, "message")
    assert message.is_displayed() and "error" in message.get_attribute("class")
    assert message.text.startswith("This link's parameters were not used: ") and says in message.text, message.text
    time.sleep(0.3)  # a game started by start=1 would be on its way by now
    assert not d.find_element(By.ID, "game").is_displayed(), "a game started from a bad link"
    assert d.execute_script("return window.splendorApp.position") is None
    shown = form(d)
    for name, value in values.items():
        assert shown[name] == value, (name, shown)
    assert not errors_in_console(d)
    if query.startswith(("players=9", "game=chess")):
        # the page is usable: the form starts a game, and the message goes
        d.execute_script("document.querySelector('#setup [name=level]').value = '1'")
        click(d, d.find_element(By.ID, "setup-button"))
        settle(d)
        assert legal(d) and not message.is_displayed()


def test_a_server_error_is_shown_and_the_page_goes_on(site, browser):
    d = browser
    resize(d, 1400)
    d.get(f"{site}/?game=base&seat=1&seed=3")
    wait(d, "return document.body.dataset.ready === '1'", "the page")
    # a level the server refuses (the form offers 1-10; here 11 is forced in): its answer is
    # shown, naming the field, and the page stays usable
    d.execute_script("const s = document.querySelector('#setup [name=level]'); s.append(new Option('11', '11'));"
                     "s.value = '11';")
    d.find_element(By.ID, "setup-button").click()
    deadline = time.monotonic() + TIMEOUT
    while not d.find_element(By.ID, "message").text:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    text = d.find_element(By.ID, "message").text
    assert text.startswith("The server answered INVALID_ARGUMENT: level") and "11" in text, text
    wait(d, "return document.body.dataset.busy === '0'", "the page to be idle again")
    assert d.find_element(By.ID, "setup-button").is_enabled()
    # and a good game starts from the same page
    d.execute_script("document.querySelector('#setup [name=level]').value = '1'")
    d.find_element(By.ID, "setup-button").click()
    settle(d)
    assert legal(d)
    assert d.find_element(By.ID, "move-list").get_attribute("open") is not None  # unfolded on a desktop


# What a finger taps: the form, the buttons, and on the board every card, deck, noble, token and cell.
TAP_TARGETS = """
return [...document.querySelectorAll(
  '#setup select, #setup input, #setup button, #game button, #move-list summary, #board .rows [data-card], ' +
  '#board [data-deck], ' +
  '#board .top [data-noble], #board .top [data-location], #board .top [data-royal], #board .supply-tokens .chip, ' +
  '#board .seat .tokens .chip, #board .seat .bonuses .chip, #board [data-cell], #board [data-bag]')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect();
              return [e.id || e.className || e.tagName, Math.round(r.width), Math.round(r.height),
                      Math.round(r.right)]; });
"""


@pytest.mark.parametrize("game, players", [("base", 4), ("duel", 2), ("marvel", 4)])
def test_at_390_px_nothing_is_wider_than_the_screen_and_every_target_is_a_finger_wide(site, browser, game, players):
    d = browser
    start(d, site, f"game={game}&players={players}&seat=0&level=1&seed=3", 390)
    play_by_board(d, pick(legal(d), 0))
    assert d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]") == [390, 390]
    # on a phone the move list starts folded (the board is the way to play), a tap unfolds it
    assert d.find_element(By.ID, "move-list").get_attribute("open") is None
    targets = d.execute_script(TAP_TARGETS)
    assert len(targets) > 30
    small = [t for t in targets if min(t[1], t[2]) < 40]
    assert not small, small
    assert max(t[3] for t in targets) <= 390
    # the chooser fits the screen and its moves are finger-sized too
    click(d, d.find_element(By.CSS_SELECTOR, "#board [data-cell]" if game == "duel" else "#board .supply-tokens .chip"))
    chooser = d.find_element(By.ID, "chooser")
    assert chooser.is_displayed()
    sizes = d.execute_script("return [...document.querySelectorAll('#chooser button')].map(b => "
                             "{ const r = b.getBoundingClientRect(); return [r.height, r.left, r.right]; })")
    assert sizes and all(h >= 40 and left >= 0 and right <= 390 for h, left, right in sizes), sizes
    screenshot(d, f"chooser-{game}-390.png")
    # the keyboard reaches the board too: Tab to a token, Enter opens the same chooser
    click(d, d.find_element(By.ID, "chooser-close"))
    target = d.find_element(By.CSS_SELECTOR, "#board [data-cell]" if game == "duel" else "#board .supply-tokens .chip")
    assert target.get_attribute("tabindex") == "0" and target.get_attribute("role") == "button"
    target.send_keys(Keys.ENTER)
    assert chooser.is_displayed()
    assert d.execute_script("return document.querySelectorAll('#chooser button.move').length") == len(sizes) - 1
