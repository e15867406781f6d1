"""The demo page as a coach (issue "coach"), in Chromium at a phone's 390x844 and a laptop's 1280x800:
the hint says why (each line's reasons, the service's sentences), the review after the game says
why each mistake was one, the cards an opponent could buy on its next turn are marked (what
LegalActions' threats says), a tap on a card you cannot buy never plays a move, your own seat is
on screen without scrolling, and the chart's text stays readable on a phone. The page's
Math.random is seeded in each test, so the AI's moves (and so each game) are the same every run.

Skipped, with the reason, where chromium, chromium-driver or selenium is missing."""
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
from google.protobuf import json_format  # noqa: E402
from splendor.v1 import splendor_pb2 as pb  # noqa: E402
from web_helpers import Http  # noqa: E402

from splendor_ai import reasons  # noqa: E402
from splendor_ai.service import convert  # noqa: E402

SIZES = [390, 1280]  # (the heights: browser_helpers.WIDTHS)

# A small seeded generator in place of the page's Math.random (the AI's and the hint's seeds).
SEED_RANDOM = """
let s = arguments[0] >>> 0;
Math.random = () => { s = (s + 0x6D2B79F5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
"""


def begin(driver, site, query: str, width: int, seed: int = 1):
    """A new game from the link's query, the page's Math.random seeded first."""
    resize(driver, width)
    driver.get(f"{site}/?{query}")
    wait(driver, "return document.body.dataset.ready === '1'", "the page")
    driver.execute_script(SEED_RANDOM, seed)
    click(driver, driver.find_element(By.ID, "setup-button"))
    settle(driver)


def play(driver, notation: str):
    """Plays a move from the list (a script's click: the list may be folded on a phone)."""
    driver.execute_script("arguments[0].click()",
                          driver.find_element(By.CSS_SELECTOR, f'#moves button.move[data-notation="{notation}"]'))
    settle(driver)


def web(site: str) -> Http:
    return Http(int(site.rsplit(":", 1)[1]))


def state_of(position_json: dict):
    return convert.decode_position(json_format.ParseDict(position_json, pb.Position(), ignore_unknown_fields=False))


# the reasons as the page shows them: per element, [sign, the words for screen readers, sentence, class]
SHOWN_REASONS = """
return [...arguments[0].querySelectorAll('.reasons .reason')].map(r => [r.querySelector('.sign').textContent,
  r.querySelector('.sr-only').textContent, r.querySelector('.why').textContent, r.classList.contains('good')]);
"""


def check_reasons(driver, element, sent: list[dict]):
    """What ``element`` shows of the reasons ``sent`` (the response's, as JSON): each sentence,
    in order, a ✓ and "for: " when good, a ⚠ and "against: " when not (not colour alone)."""
    shown = driver.execute_script(SHOWN_REASONS, element)
    assert shown == [["✓" if r.get("good") else "⚠", "for: " if r.get("good") else "against: ", r["text"],
                      bool(r.get("good"))] for r in sent], (shown, sent)


@pytest.mark.parametrize("width", SIZES)
def test_the_hint_says_why_under_each_line(site, browser, width):
    d = browser
    begin(d, site, "game=base&players=2&seat=0&level=1&seed=11&hint=300", width)
    for _ in range(2):  # a few tokens first, so that there is more to say
        play(d, next(m for m in legal(d) if m.startswith("take") and len(m) == 8))
    position = app(d)["position"]
    click(d, d.find_element(By.ID, "hint-button"))
    wait(d, "return window.splendorApp.hint && window.splendorApp.hint.final && "
            "document.querySelector('#hint').textContent.includes('top moves')", "the hint's final report")
    lines = d.execute_script("return window.splendorApp.hint.lines")  # the final report's, as the server sent them
    items = d.find_elements(By.CSS_SELECTOR, "#hint .hint-lines > li")
    assert 1 <= len(items) <= 3
    by_move = {line["move"]["notation"]: line for line in lines}
    view = state_of(position).view(0)
    said = 0
    for rank, li in enumerate(items):
        line = by_move[li.get_attribute("data-notation")]
        check_reasons(d, li, line.get("reasons") or [])
        said += len(line.get("reasons") or [])
        action = view.string_to_action(line["move"]["notation"])
        true = {reasons.sentence(f, "base") for f in reasons.facts(view, action)}
        for r in line.get("reasons") or []:  # each is a documented sentence of a true fact of the move
            assert r["text"] in true or r["code"] in ("REASON_CODE_SEARCH_BEST", "REASON_CODE_PLANS_BUY"), r
        if rank == 0 and line.get("reasons"):
            first = li.find_element(By.CSS_SELECTOR, ".reasons")
            assert "first" in first.get_attribute("class") and first.is_displayed()
    assert said >= 1, "no line of the hint said why"
    assert not errors_in_console(d)


# a weak player, the same every run: three tokens when it can, else a blind reserve, else what pick() plays
def weak(moves: list[str], turn: int) -> str:
    return (next((m for m in moves if m.startswith("take") and len(m) == 8), None)
            or next((m for m in moves if m.startswith("reserve deck")), None) or pick(moves, turn))


CHART_TEXT = """
const svg = document.querySelector('#chart svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
return [...svg.querySelectorAll('text')].map(t => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale,
  t.getBoundingClientRect().right <= document.documentElement.clientWidth]);
"""


def test_the_review_says_why_each_mistake_was_one_and_its_chart_reads_on_a_phone(site, browser):
    d = browser
    begin(d, site, "game=base&players=2&seat=0&level=1&seed=11&hint=300&chart=10", 390, seed=3)
    turn = 0
    while not app(d)["status"]["gameOver"]:
        play(d, weak(legal(d), turn))
        turn += 1
        assert turn < 200, "the game does not end"
    wait(d, "return document.querySelector('#chart .summary') !== null", "the review", timeout=120)
    a = app(d)
    # the service's verdicts, asked for again as the page asked (the same moves, budget and seed)
    messages, _ = web(site).stream("AnalyzeGame", {"initialPosition": d.execute_script(
        "return window.splendorApp.initial"), "moves": [{"notation": m} for m in a["actions"]],
        "iterations": 10, "seed": "1"}, timeout=120)
    verdicts = [m["decision"] for m in messages if not m.get("final")]
    mine = [v for v in verdicts if v.get("seat", 0) == 0 and v.get("mark", "MARK_NONE") != "MARK_NONE"]
    assert mine, "the weak player made no mistake: choose another seed"
    for width in (390, 1280):
        resize(d, width)
        items = d.find_elements(By.CSS_SELECTOR, "#chart .marks > li")
        assert [int(li.get_attribute("data-index")) for li in items] == [v.get("index", 0) for v in mine]
        for li, v in zip(items, mine):
            assert li.find_element(By.CSS_SELECTOR, ".mark-text").text.startswith(
                f"decision {v.get('index', 0) + 1}: you played {v['played']['notation']}")
            check_reasons(d, li, v.get("reasons") or [])
        assert any(v.get("reasons") for v in mine), "no mistake said why"
        # the chart, drawn at its box's width: every text at 11 CSS px or more, none cut off
        wait(d, "const s = document.querySelector('#chart svg'); return Math.abs(s.getBoundingClientRect().width - "
                "Math.min(640, document.querySelector('#chart').clientWidth)) < 2", "the chart redrawn")
        texts = d.execute_script(CHART_TEXT)
        assert len(texts) >= 8 and all(size >= 11 for _, size, _ in texts), texts
        assert all(inside for *_, inside in texts), texts
        assert d.execute_script("return document.documentElement.scrollWidth") <= width
        screenshot(d, f"review-{width}.png")
    assert not errors_in_console(d)


THREATS_SHOWN = """
return [...document.querySelectorAll('#board .card.threat')].map(c => [+c.dataset.card, c.dataset.threat,
  c.querySelector('.threat-badge').textContent, c.title, c.getAttribute('aria-label')]);
"""


@pytest.mark.parametrize("game, width", [("base", 390), ("duel", 1280), ("marvel", 1280)])
def test_the_cards_an_opponent_could_buy_next_turn_are_marked(site, browser, game, width):
    d = browser
    begin(d, site, f"game={game}&players=2&seat=1&level=1&seed=5", width, seed=2)
    http = web(site)
    for turn in range(12):
        a = app(d)
        threats = http.call("LegalActions", {"position": a["position"]}).get("threats", [])
        assert [t.get("seat", 0) for t in threats] == [0]
        expected = sorted(t["cards"] for t in threats if t.get("cards"))
        cards = expected[0] if expected else []
        shown = d.execute_script(THREATS_SHOWN)
        assert sorted(s[0] for s in shown) == sorted(cards)
        for _, seats, badge, title, label in shown:
            assert seats == "0" and badge == "seat 0 can buy"
            assert title.endswith("seat 0 can buy it on the next turn") and label == title  # read out too
        if cards:
            screenshot(d, f"threats-{game}-{width}.png")
            break
        moves = legal(d)
        play(d, next((m for m in moves if m.startswith("take") and len(m.split()[1]) == 3), pick(moves, turn)))
    else:
        pytest.fail("seat 0 could buy nothing in 12 turns")
    assert not errors_in_console(d)


CHOOSER = """
const c = document.querySelector('#chooser');
return [!c.hidden, c.querySelector('strong')?.textContent, c.querySelector('.chooser-note')?.textContent,
        [...c.querySelectorAll('button.move')].map(b => b.dataset.notation)];
"""


def unaffordable(driver) -> list[str]:
    """The face-up cards no legal move buys, from the move list (the server's LegalActions)."""
    moves = legal(driver)
    cards = driver.execute_script("return [...document.querySelectorAll('#board .rows .card[data-card]')]"
                                  ".map(c => c.dataset.card)")
    return [c for c in cards if not any(m.startswith(f"buy {c}") for m in moves)]


def tap_offers(driver, card: str) -> list:
    before = app(driver)["actions"]
    click(driver, driver.find_element(By.CSS_SELECTOR, f'#board .rows .card[data-card="{card}"]'))
    time.sleep(0.2)  # a move would be on its way by now
    assert driver.execute_script("return document.body.dataset.busy") == "0"
    assert app(driver)["actions"] == before, "a tap on a card that cannot be bought played a move"
    return driver.execute_script(CHOOSER)


@pytest.mark.parametrize("game, width", [("base", 1280), ("duel", 390), ("marvel", 390), ("base", 390), ("duel", 1280)])
def test_a_tap_on_a_card_you_cannot_buy_offers_a_choice_and_plays_nothing(site, browser, game, width):
    d = browser
    begin(d, site, f"game={game}&players=2&seat=0&level=1&seed=4", width)
    moves = legal(d)
    card = unaffordable(d)[0]
    shown, title, note, offered = tap_offers(d, card)
    assert shown and title == f"card {card}"
    assert offered == [m for m in moves if m == f"reserve {card}"]  # what the server says is legal, nothing else
    if game == "duel":  # no reserve before a gold: the page says so and offers no move
        assert offered == [] and note.startswith(f"You cannot buy or reserve card {card} now.")
        assert "first take a gold" in note and any(m.startswith("gold ") for m in moves)
    else:
        assert offered == [f"reserve {card}"] and note == f"You cannot buy card {card} now. Reserve it?"
    click(d, d.find_element(By.ID, "chooser-close"))
    assert not d.find_element(By.ID, "chooser").is_displayed() and legal(d) == moves
    if game == "duel":  # after a gold, the reserve it calls for is offered, still not played at once
        play_by_board(d, next(m for m in moves if m.startswith("gold ")))
        assert all(m.startswith("reserve") for m in legal(d))
        card = unaffordable(d)[0]
        shown, title, note, offered = tap_offers(d, card)
        assert shown and offered == [f"reserve {card}"] and note == f"You cannot buy card {card} now. Reserve it?"
        played = len(app(d)["actions"])
        click(d, d.find_element(By.CSS_SELECTOR, f'#chooser button.move[data-notation="reserve {card}"]'))
        settle(d)
        assert app(d)["actions"][played] == f"reserve {card}"  # the choice is played (then the AI's turn)
    assert not errors_in_console(d)


SEAT_BOX = """
const rect = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
const s = document.querySelector('#board .seat.human');
const chip = s.querySelector('.tokens .chip');
const r = chip.getBoundingClientRect();
return {scroll: window.scrollY, height: innerHeight, width: innerWidth, seat: rect(s),
        rows: [...s.querySelectorAll('.line')].map(rect),
        top: document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === chip};
"""


@pytest.mark.parametrize("game, players, width", [("base", 4, 1280), ("base", 4, 390), ("duel", 2, 1280),
                                                  ("duel", 2, 390), ("marvel", 4, 1280), ("marvel", 3, 390)])
def test_your_seat_is_on_screen_without_scrolling(site, browser, game, players, width):
    d = browser
    begin(d, site, f"game={game}&players={players}&seat={players - 1}&level=1&seed=6", width)
    box = d.execute_script(SEAT_BOX)
    assert box["scroll"] == 0
    top, bottom, left, right = box["seat"]
    assert 0 <= top and bottom <= box["height"] and 0 <= left and right <= box["width"], box
    assert all(0 <= t and b <= box["height"] for t, b, _, _ in box["rows"]), box  # tokens, bonuses, reserved
    assert box["top"], "your tokens are covered"
    # the board is still all there below: scrolled to its end, the last row and the seats are reachable
    assert d.execute_script("return document.documentElement.scrollWidth") <= width
    screenshot(d, f"seat-{game}-{width}.png")
