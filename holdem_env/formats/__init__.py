"""Hand-history formats: PHH (the Poker Hand History format) read and written, and replay of a
history through the engine (:mod:`~holdem_env.formats.phh`, :mod:`~holdem_env.formats.replay`).

Imports only the engine and the standard library.
"""

from __future__ import annotations

from pathlib import Path

#: A published hand (Dwan vs Ivey, 2009: antes, an uncalled bet, an unknown hand) shipped with the
#: package; ``holdem demo`` replays it and the tests read it.
SAMPLE_HISTORY = Path(__file__).resolve().parent / "data" / "dwan-ivey-2009.phh"

__all__ = ["SAMPLE_HISTORY"]
