"""What the browser tests need: Debian's chromium and its driver, selenium and the play extra.

``require_browser()`` at the top of a browser test module skips the whole module with one line
saying how to enable it when any of them is missing (``.ci/run`` installs them).
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or next(
    (p for p in ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver") if Path(p).exists()), None
)
HAVE_PACKAGES = all(importlib.util.find_spec(name) is not None for name in ("selenium", "starlette"))


def require_browser() -> None:
    """Skip the calling test module unless chromium, chromedriver, selenium and starlette are there."""
    if not (CHROMIUM and CHROMEDRIVER and HAVE_PACKAGES):
        pytest.skip(
            "browser tests skipped: enable them with `apt-get install chromium chromium-driver` and "
            "`pip install -e '.[dev]'` (selenium, play extra); .ci/run installs both",
            allow_module_level=True,
        )


def page_state(d: Any) -> dict[str, Any] | None:
    """The state the page last received from the server (``window.holdem.state``)."""
    return d.execute_script("return window.holdem && window.holdem.state")


def wait_state(d: Any, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
    """Wait until the page's state satisfies ``pred``; return it."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(d, timeout, poll_frequency=0.05).until(lambda _: (s := page_state(d)) is not None and pred(s))
    return page_state(d)  # type: ignore[return-value]


def press(d: Any, *keys: str) -> None:
    """Type ``keys`` on the page (keyboard only, as a person would)."""
    from selenium.webdriver.common.by import By

    body = d.find_element(By.TAG_NAME, "body")
    for key in keys:
        body.send_keys(key)


def text_of(d: Any, element_id: str) -> str:
    """The visible text of the element with ``element_id``."""
    from selenium.webdriver.common.by import By

    return d.find_element(By.ID, element_id).text
