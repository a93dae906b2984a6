"""``holdem play`` in a real browser: headless Chromium driven through Selenium, keyboard only.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package (the dev
extra); ``.ci/run`` installs the Debian packages. Without them the module is skipped with one
line saying so. Screenshots go to ``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from browserkit import CHROMEDRIVER, CHROMIUM, page_state, press, require_browser, text_of, wait_state

require_browser()

from playkit import stacked_deck  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from holdem_env.engine.cards import card_str  # noqa: E402
from holdem_env.play.server import PlayServer, serve_in_thread  # noqa: E402
from holdem_env.play.session import HUMAN_SEAT, PlayConfig, PlaySession  # noqa: E402

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
#: Hole cards of rising strength on the board Ad Kd 9s 5h 2c (the last: three aces).
RISING = ["7c3d", "8c4h", "Tc6h", "5c6c", "9c7h", "KsQh", "Kc9h", "AsAh"]
SEED = 9  # hand 1 checked down, the person folding: the person 1000, the next button 1040, the rest 990


class ReraiseAgent:
    """Checks or calls; from its second hand on, re-raises the minimum over a single preflop raise."""

    def __init__(self) -> None:
        self.hands = 0

    def start_hand(self, info: Mapping[str, Any]) -> None:
        self.hands += 1

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        view, legal = info["view"], info["legal"]
        raises = sum(1 for h in view["history"] if h[2] in ("bet", "raise"))
        if self.hands >= 2 and view["street"] == "preflop" and raises == 1 and legal["min_raise_to"]:  # 0: no raise
            return int(legal["min_raise_to"]) + 1  # the mirror env is in exact mode: id = raise-to + 1
        return 1


class ScriptedSession(PlaySession):
    """Deals hand 2 from a stacked deck: everybody all in, strengths rising in showing order."""

    def start_hand(self, deck=None):
        if deck is None and self.hand_number == 1:
            n = self.config.players
            button = (self.hand.button + 1) % n  # type: ignore[union-attr]
            assert min(self.stacks[1:]) < self.stacks[HUMAN_SEAT] < self.stacks[button], "no side pot: pick a seed"
            order = [(button + k) % n for k in range(1, n + 1)]
            holes = dict(zip(order, RISING[-n:], strict=True))
            deck = stacked_deck(n, button, holes, board="AdKd9s5h2c")
        return super().start_hand(deck)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    ARTIFACTS.mkdir(exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # type: ignore[assignment]
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,960"):
        options.add_argument(flag)
    with tempfile.TemporaryDirectory(prefix="holdem-chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            yield browser
        finally:
            browser.quit()


_state, _wait, _press, _text = page_state, wait_state, press, text_of


def _my_turn(s: dict[str, Any]) -> bool:
    return s["legal"] is not None


def _shot(d: Any, name: str) -> None:
    d.save_screenshot(str(ARTIFACTS / name))


def test_a_session_played_with_the_keyboard_only(driver: Any) -> None:
    config = PlayConfig(seed=SEED, opponents=("tag",) * 5, bot_delay=0.05, clock=60)
    session = ScriptedSession(config, agents=[ReraiseAgent() for _ in range(5)])
    server = PlayServer(session)
    with serve_in_thread(server) as url:
        driver.get(url + "?record=1")
        # Hand 1, preflop: the person faces the big blind.
        s = _wait(driver, _my_turn)
        assert s["hand"] == 1 and s["street"] == "preflop" and s["legal"]["min_raise_to"] == 20
        assert len(driver.find_elements(By.CSS_SELECTOR, "#seat-0 .card[data-card]")) == 2
        assert len(driver.find_elements(By.CSS_SELECTOR, ".seat .card.back")) == 10
        assert "BTN" in _text(driver, f"seat-{s['button']}")
        assert _text(driver, "raise-to") == "to 20"  # an empty pile raises the minimum
        assert driver.find_element(By.ID, "clock").is_displayed() and _text(driver, "clock-text").endswith(" s")
        _shot(driver, "play_preflop.png")

        # Chips 1-4, Backspace, presets M H P A: the raise-to total under the Raise chip.
        _press(driver, "1")  # 10 + 5 = 15 is below the minimum: the page says why and offers no raise
        assert _text(driver, "raise-to") == "to 15"
        message = _text(driver, "message")
        assert "minimum raise is to 20" in message and "all in" in message
        assert not driver.find_element(By.ID, "btn-raise").is_enabled()
        _shot(driver, "play_below_minimum.png")
        _press(driver, "r")  # refused on the page: nothing was sent
        assert _state(driver)["legal"] is not None and session.actor == HUMAN_SEAT
        _press(driver, Keys.BACKSPACE)
        assert _text(driver, "raise-to") == "to 20"
        _press(driver, "2", "3", "4")
        assert _text(driver, "raise-to") == f"to {10 + 10 + 25 + 50}"
        assert driver.find_element(By.ID, "btn-raise").is_enabled()
        presets = s["legal"]["presets"]
        for key, name in (("m", "min"), ("h", "half"), ("p", "pot"), ("a", "allin")):
            _press(driver, key)
            assert _text(driver, "raise-to") == f"to {presets[name]:,}"
        # The server refuses an illegal amount sent anyway, with the engine's message.
        driver.execute_script(
            "window.holdem.ws.send(JSON.stringify({type: 'action', action: 'raise', amount: 15}))"
        )
        WebDriverWait(driver, 10).until(lambda d: "below the minimum 20" in _text(d, "message"))
        assert session.actor == HUMAN_SEAT and session.hand.street_bets[HUMAN_SEAT] == 0  # type: ignore[union-attr]
        _press(driver, "f")  # fold
        s = _wait(driver, lambda s: s["hand_over"])
        assert s["seats"][HUMAN_SEAT]["folded"]

        # Hand 2 (Enter): raise the minimum, face a re-raise, go all in; side pots at the showdown.
        _press(driver, Keys.ENTER)
        s = _wait(driver, lambda s: s["hand"] == 2 and _my_turn(s))
        _press(driver, "m", "r")
        # (the state from before the raise also shows the person's turn: wait for the re-raise itself)
        s = _wait(driver, lambda s: s["hand"] == 2 and _my_turn(s) and s["current_bet"] > 20)
        assert s["current_bet"] == 30 and s["legal"]["call"] == 10
        assert _text(driver, "btn-call").startswith("Call 10")
        _shot(driver, "play_facing_raise.png")
        _press(driver, "a")
        assert _text(driver, "raise-to") == "to 1,000"
        _press(driver, "r")
        s = _wait(driver, lambda s: s["hand"] == 2 and s["hand_over"])
        labels = [p["label"] for p in s["pots"]]
        assert labels == ["main pot", "side pot"]
        pots_text = _text(driver, "pots")
        assert "Main pot 5,940" in pots_text and "Side pot 20" in pots_text
        winner = s["pots"][0]["winners"][0]
        results = _text(driver, "results")
        assert f"{s['seats'][winner]['name']} wins the main pot (5,940) with three of a kind" in results
        assert f"{s['seats'][winner]['name']} wins the side pot (20)" in results
        assert len(driver.find_elements(By.CSS_SELECTOR, ".seat .card[data-card]")) == 12  # everyone showed
        assert "three of a kind" in _text(driver, f"seat-{winner}")
        _shot(driver, "play_showdown_side_pot.png")
        assert s["seats"][HUMAN_SEAT]["stack"] == 0

        # Hand 3 (Space): the person was broke and is topped up to 1,000 (posting the big blind).
        _press(driver, " ")
        s = _wait(driver, lambda s: s["hand"] == 3)
        assert s["seats"][HUMAN_SEAT]["stack"] + s["seats"][HUMAN_SEAT]["bet"] == 1000
        assert "You are topped up to 1,000" in _text(driver, "log")
        _shot(driver, "play_topped_up.png")
        while not (s := _wait(driver, lambda s: _my_turn(s) or s["hand_over"]))["hand_over"]:
            seen = s["log"][:]
            _press(driver, "c")
            _wait(driver, lambda s, seen=seen: s["hand_over"] or s["log"] != seen)
        assert _text(driver, "stat-hands") == "3"
        assert int(_text(driver, "stat-net").replace(",", "")) == session.net

        # Every hand is in the log panel.
        log = _text(driver, "log")
        for number in (1, 2, 3):
            assert f"Hand #{number}:" in log

        # The PHH download replays through the engine.
        phhs = driver.execute_async_script(
            "const done = arguments[0]; fetch('history.phhs').then(r => r.text()).then(done);"
        )
        assert "[hand-3]" in phhs
        path = ARTIFACTS / "play_session.phhs"
        path.write_text(phhs)
        out = subprocess.run(
            [sys.executable, "-m", "holdem_env.cli", "replay", "--check", str(path)],
            capture_output=True, text=True, check=False,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        assert out.stdout.strip().endswith("3 hands, 3 match, 0 differ, 0 errors")

        # Every message the page received holds only cards the person could see.
        received = [json.loads(m) for m in driver.execute_script("return window.holdem.received")]
    states = [m for m in received if m["type"] == "state"]
    assert len(states) > 20
    for m in states:
        record = session.records[m["hand"] - 1]
        hidden = {card_str(c) for seat, cards in enumerate(record.hole_cards)
                  if seat != HUMAN_SEAT and seat not in record.shown and seat not in record.mucked
                  for c in cards}
        tokens = set(CARD.findall(json.dumps(m)))
        assert not tokens & hidden
        if not m["hand_over"]:  # before the showdown: only the person's cards and the board
            assert tokens <= set(m["seats"][HUMAN_SEAT]["cards"]) | set(m["board"])


def test_the_clock_runs_out_and_folds(driver: Any) -> None:
    config = PlayConfig(seed=SEED, opponents=("tag",) * 5, bot_delay=0.05, clock=1.5)
    session = PlaySession(config, agents=[ReraiseAgent() for _ in range(5)])
    with serve_in_thread(PlayServer(session)) as url:
        driver.get(url)
        s = _wait(driver, _my_turn)
        assert 0 < s["clock_left"] <= 1.5 and not s["legal"]["check"]
        WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "clock").is_displayed())
        _shot(driver, "play_clock.png")
        s = _wait(driver, lambda s: s["seats"][HUMAN_SEAT]["folded"], timeout=10)
        assert "You fold (time ran out)" in _text(driver, "log")


def test_reopening_the_page_resumes_the_same_table(driver: Any) -> None:
    config = PlayConfig(seed=4, opponents=("tag",) * 5, bot_delay=0.05, clock=0)
    session = PlaySession(config, agents=[ReraiseAgent() for _ in range(5)])
    with serve_in_thread(PlayServer(session)) as url:
        driver.get(url)
        first = _wait(driver, _my_turn)
        _press(driver, "f")
        _wait(driver, lambda s: s["hand_over"])
        _press(driver, Keys.ENTER)
        second = _wait(driver, lambda s: s["hand"] == 2 and _my_turn(s))
        driver.get("about:blank")
        driver.get(url)
        again = _wait(driver, _my_turn)
        assert again["hand"] == 2 and again["seats"] == second["seats"]
        log = _text(driver, "log")
        assert "Hand #1:" in log and "Hand #2:" in log and first["log"][0] in log
    assert session.hands_played == 1


def test_the_page_is_refused_without_the_token(driver: Any) -> None:
    session = PlaySession(PlayConfig(seed=1, opponents=("tag",) * 5, bot_delay=0.05, clock=0),
                          agents=[ReraiseAgent() for _ in range(5)])
    with serve_in_thread(PlayServer(session)) as url:
        driver.get(url.rsplit("/t/", 1)[0] + "/t/not-the-token/")
        assert "session token" in driver.find_element(By.TAG_NAME, "body").text
