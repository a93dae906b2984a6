"""The local web server of ``holdem play``: the page, its WebSocket, the bots' pace and the clock.

Every URL lives under ``/t/<token>/`` where ``<token>`` is a random per-session secret;
a request without the right token is refused (HTTP 403, or WebSocket close code 4403).

==============================  ====================================================
path (under ``/t/<token>/``)    what
==============================  ====================================================
(empty)                         the table page (``static/index.html``)
``static/<file>``               the page's CSS and JavaScript
``ws``                          the WebSocket (messages: :mod:`holdem_env.play.protocol`)
``history.phhs``                the finished hands as PHH, as the person saw them
==============================  ====================================================

All tabs share one table; every change is sent to each of them. Actions are applied one
at a time (an ``asyncio.Lock``), each checked by the engine. Needs the ``play`` extra
(Starlette, Uvicorn with WebSockets).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from holdem_env.engine.errors import HoldemError
from holdem_env.play.protocol import ClientMessage, ProtocolError, parse_message
from holdem_env.play.session import PlaySession

__all__ = ["PlayServer", "serve", "serve_in_thread", "bind_socket"]

#: The page's files and their content types (nothing else under static/ is served).
STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "table.css": "text/css; charset=utf-8",
    "table.js": "text/javascript; charset=utf-8",
}
_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the token is in the URL: never pass it on
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
_REFUSED = "refused: this table needs the session token printed by `holdem play` (open the URL it printed)"


def _static(name: str) -> bytes:
    return resources.files("holdem_env.play").joinpath("static", name).read_bytes()


class PlayServer:
    """A :class:`PlaySession` served to the browser. ``token``: the URL secret (random by default).

    :attr:`app` is the Starlette application; :attr:`path` the page's path (``/t/<token>/``).
    The first hand is dealt when the application starts.
    """

    def __init__(self, session: PlaySession, *, token: str | None = None) -> None:
        self.session = session
        self.token = token if token is not None else secrets.token_urlsafe(24)
        if not self.token or not all(c.isalnum() or c in "-_" for c in self.token):
            raise ValueError("token must be a non-empty URL-safe string (letters, digits, '-', '_')")
        self.path = f"/t/{self.token}/"
        self._clients: set[WebSocket] = set()
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._driver_task: asyncio.Task[None] | None = None
        self.app = Starlette(
            routes=[
                Route("/t/{token}", self._page_redirect),
                Route("/t/{token}/", self._page),
                Route("/t/{token}/static/{name}", self._file),
                Route("/t/{token}/history.phhs", self._history),
                WebSocketRoute("/t/{token}/ws", self._socket),
                Route("/{rest:path}", self._refuse),
            ],
            lifespan=self._lifespan,
        )

    # ------------------------------------------------------------------ HTTP
    def _token_ok(self, given: Any) -> bool:
        return isinstance(given, str) and secrets.compare_digest(given.encode(), self.token.encode())

    async def _refuse(self, request: Request) -> Response:
        return PlainTextResponse(_REFUSED, status_code=403, headers=_HEADERS)

    async def _page_redirect(self, request: Request) -> Response:
        if not self._token_ok(request.path_params["token"]):
            return await self._refuse(request)
        return RedirectResponse(self.path, status_code=307, headers=_HEADERS)

    async def _page(self, request: Request) -> Response:
        if not self._token_ok(request.path_params["token"]):
            return await self._refuse(request)
        return Response(_static("index.html"), media_type=STATIC_FILES["index.html"], headers=_HEADERS)

    async def _file(self, request: Request) -> Response:
        if not self._token_ok(request.path_params["token"]):
            return await self._refuse(request)
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            return PlainTextResponse(f"no such file {name!r}", status_code=404, headers=_HEADERS)
        return Response(_static(name), media_type=STATIC_FILES[name], headers=_HEADERS)

    async def _history(self, request: Request) -> Response:
        if not self._token_ok(request.path_params["token"]):
            return await self._refuse(request)
        async with self._lock:
            text = self.session.hand_history_phhs()
        headers = dict(_HEADERS)
        headers["Content-Disposition"] = 'attachment; filename="holdem-session.phhs"'
        return Response(text, media_type="text/plain; charset=utf-8", headers=headers)

    # ------------------------------------------------------------------ WebSocket
    async def _socket(self, ws: WebSocket) -> None:
        if not self._token_ok(ws.path_params.get("token")):
            await ws.close(code=4403, reason="missing or wrong session token")
            return
        await ws.accept()
        self._clients.add(ws)
        try:
            async with self._lock:
                logs = self.session.history_logs()
                state = self.session.view()
            await ws.send_json({"type": "history", "hands": logs[:-1]})
            await ws.send_json(state)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await self._handle(ws, raw)
        except WebSocketDisconnect:
            pass
        finally:
            self._clients.discard(ws)

    async def _handle(self, ws: WebSocket, raw: str | bytes) -> None:
        try:
            msg = parse_message(raw)
        except ProtocolError as exc:
            await ws.send_json({"type": "error", "message": str(exc)})
            return
        if msg.type == "sync":
            async with self._lock:
                state = self.session.view()
            await ws.send_json(state)
            return
        try:
            async with self._lock:
                self._apply(msg)
        except HoldemError as exc:
            await ws.send_json({"type": "error", "message": str(exc)})
            return
        self._wake.set()
        await self._broadcast()

    def _apply(self, msg: ClientMessage) -> None:
        session = self.session
        if msg.type == "next":
            session.start_hand()
            return
        if msg.hand is not None and msg.hand != session.hand_number:
            raise ProtocolError(f"that action was for hand #{msg.hand}, but hand #{session.hand_number} is on")
        assert msg.action is not None
        session.act(msg.action, msg.amount)

    async def _broadcast(self) -> None:
        async with self._lock:
            state = self.session.view()
        for ws in list(self._clients):
            try:
                await ws.send_json(state)
            except Exception:
                self._clients.discard(ws)

    # ------------------------------------------------------------------ the pace of the table
    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        if self.session.hand is None:
            self.session.start_hand()
        self._driver_task = asyncio.create_task(self._drive())
        self._driver_task.add_done_callback(_report_crash)
        try:
            yield
        finally:
            self._driver_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver_task

    async def _drive(self) -> None:
        """Let the bots act (after ``bot_delay``) and run out the person's clock."""
        session = self.session
        while True:
            async with self._lock:
                if session.bot_on_turn():
                    delay: float | None = session.config.bot_delay
                else:
                    delay = session.clock_left() if session.human_on_turn() else None
            self._wake.clear()
            if delay is None:
                await self._wake.wait()
                continue
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
                continue  # something changed: look again
            except TimeoutError:
                pass
            async with self._lock:
                if session.bot_on_turn():
                    await asyncio.to_thread(session.bot_act)
                elif session.expire_clock() is None:
                    continue
            await self._broadcast()


def _report_crash(task: asyncio.Task[None]) -> None:
    """Say so at once if the table's driver stopped on an error (the table would stand still)."""
    if not task.cancelled() and task.exception() is not None:
        exc = task.exception()
        print(f"holdem play: the table stopped: {type(exc).__name__}: {exc}", file=sys.stderr)


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def _uvicorn_server(server: PlayServer) -> Any:
    import uvicorn

    config = uvicorn.Config(server.app, log_level="warning", ws="websockets-sansio", lifespan="on")
    return uvicorn.Server(config)


def serve(server: PlayServer, sock: socket.socket) -> None:
    """Serve until interrupted (Ctrl+C)."""
    uv = _uvicorn_server(server)
    try:
        uv.run(sockets=[sock])
    except KeyboardInterrupt:  # pragma: no cover - interactive
        print("holdem play: stopped", file=sys.stderr)


@contextlib.contextmanager
def serve_in_thread(server: PlayServer, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve in a background thread; yields the page URL and stops the server on exit."""
    sock = bind_socket(host, port)
    uv = _uvicorn_server(server)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if uv.started:
            break
        threading.Event().wait(0.01)
    bound_host, bound_port = sock.getsockname()[:2]
    try:
        yield f"http://{bound_host}:{bound_port}{server.path}"
    finally:
        uv.should_exit = True
        thread.join(timeout=10)
        sock.close()
