"""``holdem play`` at phone (375x667), tablet (768x1024) and desktop (1920x1080) size in headless Chromium, keyboard only.

The same session at both sizes: nothing is dealt (and no clock runs) before the page
connects; the page never scrolls sideways; every control is on screen and big enough to
tap; the raise pile shows its chips' values; seats show their last action; the showdown
names every hand with its ranks and highlights the winning five cards; the session chart
grows a point per hand. Screenshots go to ``tests/artifacts/`` (git-ignored):
``play_<size>_*.png``. Needs Debian's ``chromium`` and ``chromium-driver`` and ``selenium``.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import CHROMEDRIVER, CHROMIUM, page_state, press, require_browser, text_of, wait_state

require_browser()

from playkit import CallAgent  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

from holdem_env.play.server import PlayServer, serve_in_thread  # noqa: E402
from holdem_env.play.session import HUMAN_SEAT, PlayConfig, PlaySession  # noqa: E402

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
SIZES = {"phone": (375, 667, True), "tablet": (768, 1024, True), "desktop": (1920, 1080, False)}
#: A hand name as the server says it: with ranks (and kickers where they count).
NAMED = re.compile(
    r"with (an? \w+-high (straight flush|straight|flush)|a royal flush|a full house, \w+ full of \w+|"
    r"four of a kind, \w+|three of a kind, \w+, kickers \w+, \w+|two pair, \w+ and \w+, \w+ kicker|"
    r"a pair of \w+, kickers \w+, \w+, \w+|\w+ high, kickers \w+, \w+, \w+, \w+)"
)
CONTROLS = ["btn-fold", "btn-call", "btn-raise", "btn-undo", "btn-next"]


@pytest.fixture(scope="module", params=list(SIZES))
def sized(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any]]:
    name = request.param
    width, height, mobile = SIZES[name]
    ARTIFACTS.mkdir(exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # type: ignore[assignment]
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(flag)
    with tempfile.TemporaryDirectory(prefix="holdem-chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        try:
            yield name, browser
        finally:
            browser.quit()


_state, _wait, _press, _text = page_state, wait_state, press, text_of


def _no_sideways_scroll(d: Any) -> None:
    widths = d.execute_script(
        "return [document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth]"
    )
    assert max(widths[:2]) <= widths[2], f"the page is {max(widths[:2])} px wide in a {widths[2]} px window"


def _reachable(d: Any, name: str) -> None:
    """Every control lies inside the window's width and is big enough to tap on a phone."""
    ids = CONTROLS + [f"chip-{v}" for v in (5, 10, 25, 50)] + [f"preset-{p}" for p in ("min", "half", "pot", "allin")]
    rects = d.execute_script(
        """return arguments[0].map((id) => {
             const el = id.startsWith('chip-') ? document.querySelector('.chip[data-chip="' + id.slice(5) + '"]')
                      : id.startsWith('preset-') ? document.querySelector('[data-preset="' + id.slice(7) + '"]')
                      : document.getElementById(id);
             const r = el.getBoundingClientRect();
             return [id, r.left, r.right, r.width, r.height];
           });""",
        ids,
    )
    inner = d.execute_script("return window.innerWidth")
    for element_id, left, right, width, height in rects:
        assert left >= 0 and right <= inner, (element_id, left, right, inner)
        if name == "phone":
            assert width >= 44 and height >= 44, (element_id, width, height)  # a fingertip (44 px)


def _shot(d: Any, name: str, what: str) -> None:
    d.save_screenshot(str(ARTIFACTS / f"play_{name}_{what}.png"))


def test_the_table_at_phone_and_desktop_size(sized: tuple[str, Any]) -> None:
    name, driver = sized
    config = PlayConfig(seed=9, opponents=("tag",) * 5, bot_delay=0.05, clock=120)
    session = PlaySession(config, agents=[CallAgent() for _ in range(5)])
    with serve_in_thread(PlayServer(session)) as url:
        # Nothing is dealt while no page is open: no clock can run out for the person.
        time.sleep(1.0)
        assert session.hand is None and session.hands_played == 0 and session.clock_paused
        driver.get(url)
        s = _wait(driver, lambda s: s["legal"] is not None)
        assert s["hand"] == 1 and not any("time ran out" in line for line in s["log"])
        _no_sideways_scroll(driver)
        _reachable(driver, name)
        _shot(driver, name, "preflop")

        # The keyboard shortcuts of the game description; the pile shows its chips' values.
        _press(driver, "2", "3", "3")
        assert _text(driver, "raise-to") == f"to {s['current_bet'] + 10 + 25 + 25}"
        pile = driver.find_element(By.ID, "pile").text.split()
        assert "10" in pile and "25" in pile and "×2" in pile
        _shot(driver, name, "pile")
        _press(driver, Keys.BACKSPACE)
        assert _text(driver, "raise-to") == f"to {s['current_bet'] + 10 + 25}"
        for key, preset in (("m", "min"), ("h", "half"), ("p", "pot"), ("a", "allin")):
            _press(driver, key)
            assert _text(driver, "raise-to") == f"to {s['legal']['presets'][preset]:,}"
        _press(driver, "m", "r")  # a minimum raise; the bots call it
        s = _wait(driver, lambda s: s["hand_over"] or (s["legal"] is not None and s["street"] != "preflop"))
        seats_text = " ".join(_text(driver, f"seat-{i}") for i in range(1, 6))
        assert "Call 20" in seats_text or "Check" in seats_text  # seats show their last action
        # Check it down with C: every hand still in is shown, named with its ranks.
        while not s["hand_over"]:
            _press(driver, "c")
            s = _wait(driver, lambda s, d=s["decision"]: s["hand_over"] or (s["legal"] is not None
                                                                           and s["decision"] != d))
        results = _text(driver, "results")
        assert NAMED.search(results), results
        assert len(s["results"]["shown"]) == 6  # nobody folded: all six show
        assert len(driver.find_elements(By.CSS_SELECTOR, "#board .card.best")) >= 1
        assert len(driver.find_elements(By.CSS_SELECTOR, ".card.best")) >= 5  # the winning five
        assert NAMED.search("\n".join(s["log"])) and "You has" not in "\n".join(s["log"])
        _no_sideways_scroll(driver)
        _shot(driver, name, "showdown")

        # Enter deals the next hand; F folds; Space deals again. The chart has a point per hand.
        _press(driver, Keys.ENTER)
        s = _wait(driver, lambda s: s["hand"] == 2 and (s["legal"] is not None or s["hand_over"]))
        if not s["hand_over"]:
            _press(driver, "f" if s["legal"]["fold"] else "c")
        _wait(driver, lambda s: s["hand_over"] or s["seats"][HUMAN_SEAT]["folded"])
        s = _wait(driver, lambda s: s["hand_over"])
        _press(driver, " ")
        s = _wait(driver, lambda s: s["hand"] == 3)
        assert driver.find_element(By.ID, "chart").get_attribute("data-points") == "3"
        assert int(_text(driver, "stat-hands")) == 2
        _no_sideways_scroll(driver)
        _reachable(driver, name)
        _shot(driver, name, "hand3")
        driver.execute_script("document.getElementById('controls').scrollIntoView()")
        _shot(driver, name, "controls")
        driver.execute_script("document.getElementById('chart-panel').scrollIntoView()")
        _shot(driver, name, "chart_log")
