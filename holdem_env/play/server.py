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

No client can freeze or confuse the table:

- nothing is decided for the person while no page is connected: the first hand is dealt
  when the first page connects, and the person's clock pauses when the last one leaves;
- each client has its own send queue and writer: a client that does not read is dropped
  once its queue is full or a send takes longer than ``send_timeout`` seconds, and the
  other tabs go on receiving;
- an action carries the number of the decision it answers (``decision``): a stale or
  repeated action is refused with a message (:mod:`holdem_env.play.protocol`);
- messages are bounded in size and JSON nesting depth;
- the ``Host`` header must be an IP address, ``localhost`` or a name passed in
  ``allowed_hosts`` (DNS rebinding), and a WebSocket's ``Origin``, when the browser sends
  one, must be the page's own origin (another site's page cannot drive the table).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import secrets
import socket
import sys
import threading
from collections.abc import AsyncIterator, Iterable, Iterator
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from holdem_env.engine.errors import HoldemError
from holdem_env.play.protocol import MAX_MESSAGE_BYTES, ClientMessage, ProtocolError, parse_message
from holdem_env.play.session import PlaySession

__all__ = ["PlayServer", "serve", "serve_in_thread", "bind_socket", "is_loopback", "SEND_TIMEOUT", "SEND_QUEUE"]

#: Seconds one send to a client may take before the client is dropped as stalled.
SEND_TIMEOUT = 5.0
#: Messages waiting for one client before it is dropped as too slow.
SEND_QUEUE = 64

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
_BAD_HOST = (
    "refused: the Host header {host!r} is not this table's; open the URL `holdem play` printed "
    "(names other than localhost need --allow-host NAME)"
)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address to bind or a Host name) stays on this machine."""
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_name(header: str) -> str:
    """The name part of a ``Host`` header or an origin's netloc (``[::1]:80`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class _Client:
    """One open WebSocket with its own queue of messages and the task that writes them."""

    def __init__(self, ws: WebSocket, size: int) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=size)
        self.writer: asyncio.Task[None] | None = None
        self.dropped = False


def _static(name: str) -> bytes:
    return resources.files("holdem_env.play").joinpath("static", name).read_bytes()


class PlayServer:
    """A :class:`PlaySession` served to the browser. ``token``: the URL secret (random by default).

    :attr:`app` is the Starlette application; :attr:`path` the page's path (``/t/<token>/``).
    The first hand is dealt when the first page connects (nothing is decided before).
    """

    def __init__(
        self,
        session: PlaySession,
        *,
        token: str | None = None,
        allowed_hosts: Iterable[str] = (),
        send_timeout: float = SEND_TIMEOUT,
        send_queue: int = SEND_QUEUE,
    ) -> None:
        self.session = session
        self.allowed_hosts = frozenset(h.strip().lower() for h in allowed_hosts)
        if not send_timeout > 0 or not send_queue >= 1:
            raise ValueError("send_timeout must be > 0 seconds and send_queue >= 1 message")
        self.send_timeout = float(send_timeout)
        self.send_queue = int(send_queue)
        self.token = token if token is not None else secrets.token_urlsafe(24)
        if not self.token or not all(c.isalnum() or c in "-_" for c in self.token):
            raise ValueError("token must be a non-empty URL-safe string (letters, digits, '-', '_')")
        self.path = f"/t/{self.token}/"
        self._clients: dict[WebSocket, _Client] = {}
        self._tasks: set[asyncio.Task[None]] = set()
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

    def _host_ok(self, host: str | None) -> bool:
        """An IP address, ``localhost`` or an allowed name: a rebound DNS name is refused."""
        if host is None:
            return True  # HTTP/1.0 without Host: no name to rebind
        name = _host_name(host)
        if name == "localhost" or name in self.allowed_hosts:
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def _origin_ok(self, origin: str | None, host: str | None) -> bool:
        """A browser's WebSocket ``Origin`` must be the page's own (scheme-less host:port match)."""
        if origin is None:
            return True  # not a browser page (a script or test client holding the token)
        netloc = urlsplit(origin).netloc.lower()
        return bool(netloc) and host is not None and netloc == host.strip().lower()

    async def _refuse(self, request: Request) -> Response:
        if not self._host_ok(request.headers.get("host")):
            return PlainTextResponse(_BAD_HOST.format(host=request.headers.get("host")), status_code=403,
                                     headers=_HEADERS)
        return PlainTextResponse(_REFUSED, status_code=403, headers=_HEADERS)

    async def _page_redirect(self, request: Request) -> Response:
        if not self._token_ok(request.path_params["token"]) or not self._host_ok(request.headers.get("host")):
            return await self._refuse(request)
        return RedirectResponse(self.path, status_code=307, headers=_HEADERS)

    async def _page(self, request: Request) -> Response:
        if not self._token_ok(request.path_params["token"]) or not self._host_ok(request.headers.get("host")):
            return await self._refuse(request)
        return Response(_static("index.html"), media_type=STATIC_FILES["index.html"], headers=_HEADERS)

    async def _file(self, request: Request) -> Response:
        if not self._token_ok(request.path_params["token"]) or not self._host_ok(request.headers.get("host")):
            return await self._refuse(request)
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            return PlainTextResponse(f"no such file {name!r}", status_code=404, headers=_HEADERS)
        return Response(_static(name), media_type=STATIC_FILES[name], headers=_HEADERS)

    async def _history(self, request: Request) -> Response:
        if not self._token_ok(request.path_params["token"]) or not self._host_ok(request.headers.get("host")):
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
        host, origin = ws.headers.get("host"), ws.headers.get("origin")
        if not self._host_ok(host):
            await ws.close(code=4403, reason=f"the Host {host!r} is not this table's")
            return
        if not self._origin_ok(origin, host):
            await ws.close(code=4403, reason=f"a page from {origin!r} may not use this table")
            return
        await ws.accept()
        client = self._add_client(ws)
        try:
            async with self._lock:
                if self.session.hand is None:
                    self.session.start_hand()  # the first deal waits for the first page
                self.session.resume_clock()
                logs = self.session.history_logs()
                state = self.session.view()
            self._wake.set()
            self._enqueue(client, {"type": "history", "hands": logs[:-1]})
            await self._broadcast(state)
            while True:
                message = await ws.receive()
                if client.dropped or message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await self._handle(client, raw)
        except WebSocketDisconnect:
            pass
        finally:
            await self._remove_client(client)

    def _add_client(self, ws: WebSocket) -> _Client:
        """Register ``ws`` with its own queue and writer task."""
        client = _Client(ws, self.send_queue)
        client.writer = asyncio.create_task(self._write(client))
        self._clients[ws] = client
        return client

    def _forget(self, client: _Client) -> bool:
        """Stop sending to ``client``; False if it was already forgotten."""
        if client.dropped:
            return False
        client.dropped = True
        if self._clients.get(client.ws) is client:
            del self._clients[client.ws]
        if client.writer is not None and client.writer is not asyncio.current_task():
            client.writer.cancel()
        return True

    async def _remove_client(self, client: _Client, reason: str | None = None) -> None:
        """Forget ``client`` (closing it with ``reason`` if given); the clock pauses when no page is left."""
        if not self._forget(client) and reason is not None:
            return
        if not self._clients:
            async with self._lock:
                self.session.pause_clock()
        if reason is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.ws.close(code=4408, reason=reason), timeout=self.send_timeout)

    async def _write(self, client: _Client) -> None:
        """Send ``client``'s queue in order; a send slower than ``send_timeout`` drops the client."""
        try:
            while True:
                text = await client.queue.get()
                await asyncio.wait_for(client.ws.send_text(text), timeout=self.send_timeout)
        except asyncio.CancelledError:
            raise
        except Exception:  # a timeout or a broken connection: this client is gone
            pass
        await self._remove_client(client, "stalled: a message could not be delivered in time")

    def _enqueue(self, client: _Client, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``client``; a full queue drops the client (it is not reading)."""
        if client.dropped:
            return
        try:
            client.queue.put_nowait(json.dumps(message))
        except asyncio.QueueFull:
            task = asyncio.get_running_loop().create_task(
                self._remove_client(client, f"too slow: {self.send_queue} messages were waiting")
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _handle(self, client: _Client, raw: str | bytes) -> None:
        try:
            msg = parse_message(raw)
        except ProtocolError as exc:
            self._enqueue(client, {"type": "error", "message": str(exc)})
            return
        if msg.type == "sync":
            async with self._lock:
                state = self.session.view()
            self._enqueue(client, state)
            return
        try:
            async with self._lock:
                self._apply(msg)
        except HoldemError as exc:
            self._enqueue(client, {"type": "error", "message": str(exc)})
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
        session.act(msg.action, msg.amount, decision=msg.decision)

    async def _broadcast(self, state: dict[str, Any] | None = None) -> None:
        """Queue the current state for every client (never waits on a client)."""
        if state is None:
            async with self._lock:
                state = self.session.view()
        for client in list(self._clients.values()):
            self._enqueue(client, state)

    # ------------------------------------------------------------------ the pace of the table
    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        if not self._clients:
            self.session.pause_clock()
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
                elif session.human_on_turn() and not session.clock_paused:
                    delay = session.clock_left()
                else:
                    delay = None
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

    config = uvicorn.Config(
        server.app, log_level="warning", ws="websockets-sansio", lifespan="on",
        ws_max_size=4 * MAX_MESSAGE_BYTES,  # a bigger frame closes the connection before it is parsed
    )
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
