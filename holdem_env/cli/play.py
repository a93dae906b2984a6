"""``holdem play``: play against the bots in the browser.

Starts a local web server (127.0.0.1 by default), prints the table's URL (it carries a
per-session secret token) and opens it in the browser. The default table is the free-play
table: 6 seats, you and 5 bots, blinds 5/10, 1,000 chips, broke players topped up to 1,000.
Needs the ``play`` extra: ``pip install 'holdem-env[play]'``.

Binding beyond this machine (``--host 0.0.0.0`` or a LAN address) prints a warning: the
page is plain HTTP, so the URL with its token crosses the network readable by anyone on
it, and whoever has the URL plays your seat. The recommendation is to keep the default
``127.0.0.1`` and reach a remote table through an SSH tunnel
(``ssh -L 8765:127.0.0.1:8765 thathost``, then open the printed URL locally). A page
opened by a host *name* other than ``localhost`` needs ``--allow-host NAME``.
"""

from __future__ import annotations

import argparse
import sys
import webbrowser

from holdem_env.engine.errors import HoldemError
from holdem_env.play.roster import LEARNED_BOTS

__all__ = ["configure_parser", "run", "INSTALL_HINT", "lan_warning"]

INSTALL_HINT = "holdem play needs the web extra: pip install 'holdem-env[play]' (Starlette and Uvicorn)"


def lan_warning(host: str, port: int) -> str:
    """The warning printed when the table listens beyond this machine."""
    return (
        f"holdem play: WARNING: listening on {host}, beyond this machine. The table is plain HTTP: its URL "
        "and token cross the network unencrypted, and anyone who sees them can play your seat. "
        f"Prefer the default --host 127.0.0.1 and an SSH tunnel: ssh -L {port}:127.0.0.1:{port} THISHOST, "
        "then open the URL on your own machine."
    )


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem play`` arguments."""
    parser.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0 picks a free one)")
    parser.add_argument(
        "--host", default="127.0.0.1",
        help="address to bind (default 127.0.0.1: this machine only; anything else prints a warning: "
        "prefer an SSH tunnel)",
    )
    parser.add_argument(
        "--allow-host", action="append", default=[], metavar="NAME",
        help="a host name the page may be opened by besides IP addresses and localhost (repeatable)",
    )
    parser.add_argument("--no-browser", action="store_true", help="print the URL but do not open a browser")
    parser.add_argument("--seed", type=int, default=None, help="seed for the cards, the seating and the bots")
    parser.add_argument("--players", type=int, default=6, help="seats at the table, you included (2..10; default 6)")
    parser.add_argument(
        "--opponents", nargs="+", metavar="SPEC", default=None,
        help="one agent spec per bot seat (players - 1), e.g. tag lag calling-station tight-passive cfr-lite "
        "or mybots:MyBot; default: five styles, seated in an order you are not told. Learned bots: "
        + ", ".join(f"{name} ({'/'.join(map(str, bot.players))} seats)" for name, bot in LEARNED_BOTS.items()),
    )
    parser.add_argument("--clock", type=float, default=30.0, help="seconds per decision (default 30; 0: no clock)")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before acting (default 0.8)")


def run(args: argparse.Namespace) -> int:
    """Serve the table until Ctrl+C."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    # late import: the play server needs the optional starlette/uvicorn extra, checked just above
    from holdem_env.play.server import PlayServer, bind_socket, is_loopback, serve
    from holdem_env.play.session import PlayConfig, PlaySession

    if not 0 <= args.port <= 65535:
        print(f"holdem play: --port {args.port} is invalid: must be in 0..65535", file=sys.stderr)
        return 2
    try:
        config = PlayConfig(
            players=args.players,
            opponents=tuple(args.opponents) if args.opponents is not None else None,
            clock=args.clock,
            bot_delay=args.bot_delay,
            seed=args.seed,
        )
        session = PlaySession(config)
    except HoldemError as exc:
        print(f"holdem play: {exc}", file=sys.stderr)
        return 2
    try:
        sock = bind_socket(args.host, args.port)
    except OSError as exc:
        print(f"holdem play: cannot listen on {args.host}:{args.port} ({exc}); try --port 0", file=sys.stderr)
        return 2
    server = PlayServer(session, allowed_hosts=args.allow_host)
    host, port = sock.getsockname()[:2]
    if not is_loopback(str(host)):
        print(lan_warning(str(host), int(port)), file=sys.stderr, flush=True)
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{port}{server.path}"
    print(f"holdem play: the table is at {url}", flush=True)
    print("The first hand is dealt when the page opens; your clock pauses while no page is open.", flush=True)
    print("Keys: F fold, C check/call, R raise, 1-4 add a 5/10/25/50 chip, Backspace takes one back, "
          "M/H/P/A min/half pot/pot/all in, Enter or Space next hand. Ctrl+C stops.", flush=True)
    if not args.no_browser:
        webbrowser.open(url)
    serve(server, sock)
    return 0
