"""Play against the bots in the browser: a session on the engine, a local web server and the page.

:mod:`holdem_env.play.session` keeps the table (every rule decided by the engine),
:mod:`holdem_env.play.bots` gives each bot its own seat's view, :mod:`holdem_env.play.protocol`
checks what the page sends, :mod:`holdem_env.play.server` serves the page (``static/``) and
the WebSocket. The server needs the ``play`` extra: ``pip install 'holdem-env[play]'``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_OPPONENTS", "PlayConfig", "PlaySession"]


def __getattr__(name: str) -> Any:
    """Import the session lazily: ``holdem play --help`` reads :mod:`holdem_env.play.roster` alone."""
    if name in __all__:
        # late import: the session pulls in the env; `holdem play --help` needs only the roster
        from holdem_env.play import session

        return getattr(session, name)
    raise AttributeError(f"module 'holdem_env.play' has no attribute {name!r}")
