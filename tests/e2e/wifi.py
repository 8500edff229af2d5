"""The hall's Wi-Fi between a phone and the live server: a TCP relay the test can cut and mend.

Chromium's offline switch (and Playwright's routes) reach a service worker's own requests only
once Playwright has attached to the worker, which races with a worker that starts for the very
request under test. A cut relay fails every connection, the worker's included, at once: what a
phone sees when the Wi-Fi is gone (the connection is refused or reset).
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import socketserver
import threading
from urllib.parse import urlsplit


class _Relay(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, port: int, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", port), _Pipe)

    def track(self, *sockets: socket.socket) -> None:
        with self.lock:
            self.open.update(sockets)

    def drop_all(self) -> None:
        with self.lock:
            for sock in self.open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self.open.clear()


class _Pipe(socketserver.BaseRequestHandler):
    server: _Relay

    def handle(self) -> None:
        phone = self.request
        try:
            server = socket.create_connection(self.server.upstream)
        except OSError:
            return
        self.server.track(phone, server)
        with selectors.DefaultSelector() as selector:
            selector.register(phone, selectors.EVENT_READ, server)
            selector.register(server, selectors.EVENT_READ, phone)
            while _pass_on(selector):
                pass


def _pass_on(selector: selectors.BaseSelector) -> bool:
    """Move what one side sent to the other; False once either side is closed."""
    try:
        for key, _ in selector.select(timeout=1):
            data = key.fileobj.recv(65536)  # type: ignore[union-attr]
            if not data:
                return False
            key.data.sendall(data)
    except (OSError, ValueError):
        return False
    return True


class Wifi:
    """`Wifi(live_server.url)`: `wifi.url` reaches the live server while the Wi-Fi is up;
    `wifi.cut()` refuses every connection and breaks the open ones, `wifi.mend()` restores it."""

    def __init__(self, server_url: str) -> None:
        parts = urlsplit(server_url)
        self.upstream = (parts.hostname or "localhost", parts.port or 80)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://localhost:{self.port}"
        self.relay: _Relay | None = None
        self.mend()

    def mend(self) -> None:
        if self.relay is None:
            self.relay = _Relay(self.port, self.upstream)
            threading.Thread(target=self.relay.serve_forever, daemon=True).start()

    def cut(self) -> None:
        if self.relay is not None:
            self.relay.shutdown()
            self.relay.server_close()
            self.relay.drop_all()
            self.relay = None
