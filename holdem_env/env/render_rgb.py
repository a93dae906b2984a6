"""Draws one seat's view of a hold'em table as an RGB image (``render_mode="rgb_array"``), with Pillow.

The picture follows the browser table's look (``holdem_env/play/static/table.css``): a green felt
oval in a wooden rail, the board and the pot in the middle, one box per seat around it (gold
border for the seat to act, green for a winner once the hand is over), the seat's bet in front of
it, hole cards face up only where the view shows them (the viewer's own, and cards shown at
showdown), backs elsewhere. It draws from a :class:`~holdem_env.env._view.SeatView` (or any
mapping with the same keys), so a frame can show nothing the viewer may not see.

>>> from holdem_env.env.gym_wrapper import HoldemGymEnv
>>> env = HoldemGymEnv(num_players=3, render_mode="rgb_array")
>>> _ = env.reset(seed=2)
>>> frame = env.render()
>>> frame.shape, frame.dtype.name
((400, 640, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from holdem_env.engine.errors import ConfigError

__all__ = ["FRAME_HEIGHT", "FRAME_WIDTH", "draw_table", "blank_frame"]

#: Frame size in pixels (both multiples of 16, as video encoders like).
FRAME_WIDTH, FRAME_HEIGHT = 640, 400

# The browser table's palette (table.css).
_BG = (15, 26, 20)
_FELT = (31, 122, 69)
_FELT_DARK = (20, 85, 48)
_RAIL = (90, 58, 30)
_TEXT = (232, 239, 233)
_MUTED = (155, 179, 163)
_GOLD = (242, 193, 78)
_RED = (210, 53, 43)
_WIN = (123, 224, 143)
_BOX = (12, 20, 15)
_BOX_EDGE = (51, 73, 58)
_CARD = (253, 253, 251)
_BACK = (42, 79, 156)
_BACK_DARK = (32, 64, 127)
_CARD_W, _CARD_H = 30, 42


def _pil() -> Any:
    """Pillow's ``Image`` and ``ImageDraw`` modules, or a clear error naming the extra to install."""
    try:
        from PIL import Image, ImageDraw
    except ImportError as exc:  # pragma: no cover - Pillow comes with matplotlib, a runtime dependency
        raise ConfigError(
            "render_mode", "rgb_array", f"needs Pillow ({exc}): pip install Pillow"
        ) from None
    return Image, ImageDraw


@lru_cache(maxsize=8)
def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # pragma: no cover - Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _suit(draw: Any, suit: str, cx: float, cy: float, r: float, color: tuple[int, int, int]) -> None:
    """A suit symbol drawn from shapes (fonts may lack the glyphs)."""
    if suit == "d":
        draw.polygon([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)], fill=color)
        return
    if suit == "h":
        k = r * 0.5
        draw.ellipse([cx - r, cy - r * 0.75, cx, cy - r * 0.75 + 2 * k], fill=color)
        draw.ellipse([cx, cy - r * 0.75, cx + r, cy - r * 0.75 + 2 * k], fill=color)
        draw.polygon([(cx - r, cy - r * 0.3), (cx + r, cy - r * 0.3), (cx, cy + r)], fill=color)
        return
    if suit == "s":
        k = r * 0.5
        draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.15), (cx - r, cy + r * 0.15)], fill=color)
        draw.ellipse([cx - r, cy - r * 0.2, cx, cy - r * 0.2 + 2 * k], fill=color)
        draw.ellipse([cx, cy - r * 0.2, cx + r, cy - r * 0.2 + 2 * k], fill=color)
        draw.polygon([(cx, cy + r * 0.2), (cx + r * 0.4, cy + r), (cx - r * 0.4, cy + r)], fill=color)
        return
    # clubs
    k = r * 0.45
    for dx, dy in ((0.0, -0.5), (-0.5, 0.15), (0.5, 0.15)):
        x, y = cx + dx * r, cy + dy * r
        draw.ellipse([x - k, y - k, x + k, y + k], fill=color)
    draw.polygon([(cx, cy), (cx + r * 0.4, cy + r), (cx - r * 0.4, cy + r)], fill=color)


def _card(draw: Any, x: float, y: float, card: str | None) -> None:
    """One card with its top-left corner at ``(x, y)``: face up (``"As"``), a back (``None``)."""
    box = [x, y, x + _CARD_W, y + _CARD_H]
    if card is None:
        draw.rounded_rectangle(box, radius=4, fill=_BACK, outline=_CARD, width=2)
        for i in range(-_CARD_H, _CARD_W, 8):
            draw.line([(x + max(i, 0) + 3, y + max(-i, 0) + 3), (x + min(i + _CARD_H, _CARD_W) - 3,
                       y + min(_CARD_H, _CARD_W - i) - 3)], fill=_BACK_DARK, width=2)
        return
    rank, suit = card[:-1], card[-1]
    color = _RED if suit in "hd" else (17, 17, 17)
    draw.rounded_rectangle(box, radius=4, fill=_CARD, outline=(170, 170, 170), width=1)
    draw.text((x + _CARD_W / 2, y + 12), "10" if rank == "T" else rank, fill=color, font=_font(15), anchor="mm")
    _suit(draw, suit, x + _CARD_W / 2, y + 30, 7, color)


def _seat_centers(n: int, viewer: int) -> list[tuple[float, float]]:
    """Seat positions on an ellipse around the felt, the viewer at the bottom centre."""
    cx, cy = FRAME_WIDTH / 2, FRAME_HEIGHT / 2 - 6
    rx, ry = FRAME_WIDTH / 2 - 78, FRAME_HEIGHT / 2 - 58
    out = []
    for s in range(n):
        angle = math.pi / 2 + 2 * math.pi * ((s - viewer) % n) / n
        out.append((cx + rx * math.cos(angle), cy + ry * math.sin(angle)))
    return out


def blank_frame() -> np.ndarray:
    """An empty table (before the first deal)."""
    return draw_table(None)


def draw_table(view: Any, *, names: Sequence[str] | None = None, title: str = "") -> np.ndarray:
    """The table as ``view`` shows it: a ``(FRAME_HEIGHT, FRAME_WIDTH, 3)`` uint8 array.

    ``view``: a seat's :class:`~holdem_env.env._view.SeatView` (None: an empty table).
    ``names``: one label per seat (default ``P0``, ``P1``, ...; the viewer's gets " (you)").
    ``title``: a line at the top left.
    """
    image_mod, draw_mod = _pil()
    img = image_mod.new("RGB", (FRAME_WIDTH, FRAME_HEIGHT), _BG)
    draw = draw_mod.Draw(img)
    felt = [40, 34, FRAME_WIDTH - 40, FRAME_HEIGHT - 46]
    draw.ellipse([felt[0] - 12, felt[1] - 12, felt[2] + 12, felt[3] + 12], fill=_RAIL)
    draw.ellipse(felt, fill=_FELT_DARK)
    draw.ellipse([felt[0] + 26, felt[1] + 18, felt[2] - 26, felt[3] - 18], fill=_FELT)
    if title:
        draw.text((8, 6), title, fill=_MUTED, font=_font(12))
    if view is None:
        draw.text((FRAME_WIDTH / 2, FRAME_HEIGHT / 2), "no hand dealt yet", fill=_TEXT, font=_font(16), anchor="mm")
        return np.asarray(img, dtype=np.uint8).copy()

    n = len(view["stacks"])
    viewer = int(view["seat"])
    labels = list(names) if names is not None else [f"P{s}" for s in range(n)]
    over = bool(view["is_over"])
    payoffs = view["payoffs"]
    actor = int(view["actor"])

    # board and pot
    board = list(view["board"])
    bx = FRAME_WIDTH / 2 - (5 * (_CARD_W + 6) - 6) / 2
    by = FRAME_HEIGHT / 2 - _CARD_H / 2 - 16
    for i in range(5):
        x = bx + i * (_CARD_W + 6)
        if i < len(board):
            _card(draw, x, by, board[i])
        else:
            draw.rounded_rectangle([x, by, x + _CARD_W, by + _CARD_H], radius=4, outline=(58, 140, 90), width=1)
    street = str(view["street"])
    if over:  # the pot is paid out: name the winners instead
        won = [f"{labels[s]} {int(p):+d}" for s, p in enumerate(payoffs) if p > 0]
        centre, color = "hand over: " + (", ".join(won) or "no winner"), _GOLD
    else:
        centre, color = f"pot {int(view['pot'])}", _TEXT
    draw.text((FRAME_WIDTH / 2, by + _CARD_H + 14), centre, fill=color, font=_font(15), anchor="mm")
    draw.text((FRAME_WIDTH / 2, by - 12), street, fill=_MUTED, font=_font(12), anchor="mm")

    centers = _seat_centers(n, viewer)
    own = tuple(view["hole_cards"])
    shown = view["shown"]
    for s, (x, y) in enumerate(centers):
        dealt = bool(view["dealt_in"][s])
        folded = bool(view["folded"][s])
        edge = _BOX_EDGE
        if not over and s == actor:
            edge = _GOLD
        elif over and payoffs[s] > 0:
            edge = _WIN
        box = [x - 74, y - 26, x + 74, y + 26]
        draw.rounded_rectangle(box, radius=9, fill=_BOX, outline=edge, width=3 if edge != _BOX_EDGE else 2)
        label = labels[s] + (" (you)" if s == viewer else "")
        draw.text((x - 68, y - 20), label, fill=_TEXT, font=_font(12))
        if not dealt:
            draw.text((x - 68, y + 2), "sitting out", fill=_MUTED, font=_font(12))
            continue
        status = "folded" if folded else ("ALL-IN" if view["all_in"][s] else "")
        if over and payoffs[s]:
            status = f"{int(payoffs[s]):+d}"
        draw.text((x - 68, y - 5), str(int(view["stacks"][s])), fill=_MUTED, font=_font(12))
        color = _RED if status == "ALL-IN" else (_WIN if status.startswith("+") else _MUTED)
        draw.text((x - 68, y + 9), status, fill=color, font=_font(12))
        if s == int(view["button"]):
            draw.ellipse([x - 12, y + 6, x + 2, y + 20], fill=(255, 255, 255))
            draw.text((x - 5, y + 13), "D", fill=(17, 17, 17), font=_font(10), anchor="mm")
        # hole cards at the right of the box: the viewer's own, cards shown at showdown, else backs
        cards: Sequence[str | None] = ()
        if s == viewer and own:
            cards = own
        elif shown[s]:
            cards = tuple(shown[s])
        elif not folded:
            cards = (None, None)
        for i, c in enumerate(cards):
            _card(draw, x + 6 + i * (_CARD_W + 3), y - _CARD_H / 2, c)
        bet = int(view["street_bets"][s])
        if bet and not over:
            tx = x + (FRAME_WIDTH / 2 - x) * 0.38
            ty = y + (FRAME_HEIGHT / 2 - y) * 0.38
            draw.ellipse([tx - 24, ty - 6, tx - 14, ty + 4], fill=_GOLD, outline=(255, 255, 255))
            draw.text((tx - 10, ty - 1), str(bet), fill=_TEXT, font=_font(12), anchor="lm")
    return np.asarray(img, dtype=np.uint8).copy()
