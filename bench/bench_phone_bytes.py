"""Benchmark: the bytes a scorekeeper's phone moves, and how soon its page is usable on the
hall's Wi-Fi (issue 29).

Goals: the table page's first load (the page, its scripts, its icon: everything it fetches)
at most 35 KB on the wire; a save and its confirmation (the result sent, the answer, the
parts of the page that changed) at most 5 KB, requests included; on an emulated hall Wi-Fi
(400 ms round trip, 400 kbit/s each way, CPU four times slower) the page usable within 1.2
times the time its bytes take as one static file.

The server is the production one: gunicorn with DEBUG off, static files collected (and
pre-compressed) for WhiteNoise, GZipMiddleware, a SQLite database of its own in a temporary
folder, on 127.0.0.1:8150. The phone is Chromium at 390×844 (touch) without a service worker,
as over the venue's plain http. Bytes are Chromium's own count (`Network.loadingFinished`'s
encoded length, headers included; request lines, headers and bodies as sent). "Usable" is the
moment the entry form's Save button is painted with the page's styles (Element Timing): the
form works from then on, as a plain form; "enhanced" is the moment its script is ready (the
keypad, the outbox), printed beside it. The static file is N random bytes, N the first load's
bytes, from a plain file server under the same emulation. Each timing is the median of 5.

Run from anywhere: `python bench/bench_phone_bytes.py` (or `python bench/run.py phone_bytes`).
Exits 0 with "skipped" when Chromium is not installed.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = 8150
STATIC_PORT = 8151
CHROMIUM = "/usr/bin/chromium"
WIFI = {"offline": False, "latency": 400, "downloadThroughput": 50_000, "uploadThroughput": 50_000}
CPU_SLOWDOWN = 4
RUNS = 5
FIRST_LOAD_GOAL, SAVE_GOAL, RATIO_GOAL = 35_000, 5_000, 1.2
POLLED = "/live"  # the table page's clock and call, asked every 10 s: no part of a save
NAMES = ["Beverley Grant", "Clive Henry", "Hyacinth Morgan", "Winston Clarke", "Yvonne Stewart"]
SET_UP = f"""
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
names = {NAMES!r}
tournament = game_tournament("kalooki", slug="bench", name="Bench Open", is_published=True)
print(table_of(seated_by_hand(tournament, [names])).access_token)
"""


def environment(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    return env | {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "WEB_CONCURRENCY": "2",
        "PYTHONPATH": str(ROOT),
    }


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return done.stdout


def wait_for(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"nothing answers on 127.0.0.1:{port}")


class Wire:
    """Every request's bytes on the wire, both ways, as Chromium counts them."""

    def __init__(self, cdp) -> None:
        self.sent: dict[str, int] = {}
        self.received: dict[str, int] = {}
        self.urls: dict[str, str] = {}
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", self._request)
        cdp.on("Network.requestWillBeSentExtraInfo", self._headers)
        cdp.on("Network.loadingFinished", self._finished)

    def _request(self, event) -> None:
        request = event["request"]
        self.urls[event["requestId"]] = request["url"]
        line = len(f"{request['method']} {request['url']} HTTP/1.1\r\n")
        body = len(request.get("postData", "").encode())
        self.sent[event["requestId"]] = self.sent.get(event["requestId"], 0) + line + body

    def _headers(self, event) -> None:
        size = sum(len(f"{k}: {v}\r\n") for k, v in event["headers"].items()) + 2
        self.sent[event["requestId"]] = self.sent.get(event["requestId"], 0) + size

    def _finished(self, event) -> None:
        self.received[event["requestId"]] = int(event["encodedDataLength"])

    def reset(self) -> None:
        self.sent.clear()
        self.received.clear()
        self.urls.clear()

    def counted(self, polls: bool = True) -> list[str]:
        """The requests made since the last reset; without the live part's own polls (every
        10 s, whatever the phone does) when `polls` is false."""
        return [rid for rid in self.urls if polls or not self.urls[rid].endswith(POLLED)]

    def total(self, polls: bool = True) -> int:
        """Both ways, for the requests made since the last reset."""
        return sum(self.sent.get(rid, 0) + self.received.get(rid, 0) for rid in self.counted(polls))

    def received_total(self, polls: bool = True) -> int:
        return sum(self.received.get(rid, 0) for rid in self.counted(polls))

    def lines(self) -> list[str]:
        return [
            f"    {self.urls.get(rid, '?').split('/', 3)[-1][:48]:<48} "
            f"sent {self.sent.get(rid, 0):>6} B, received {self.received.get(rid, 0):>6} B"
            + ("" if rid in self.counted(polls=False) else "  (the live part's poll: not counted)")
            for rid in self.urls
        ]


def phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        service_workers="block",
    )  # fmt: skip
    return context, context.new_page()


def first_load_and_saves(browser, url: str) -> tuple[int, list, list[str]]:
    from playwright.sync_api import expect

    context, page = phone(browser)
    wire = Wire(context.new_cdp_session(page))
    page.goto(url)
    expect(page.locator("html[data-table-ready=yes]")).to_be_attached()
    page.wait_for_timeout(1500)  # anything the page fetches by itself once drawn
    first, first_lines = wire.total(), wire.lines()
    page.get_by_label("Who is entering?").select_option(label="Beverley Grant")
    saves = []
    for game, out in ((1, "Beverley Grant"), (2, "Clive Henry")):
        page.locator(f'fieldset[data-player="{out}"] .out-toggle').click()
        page.locator("section.sheet").get_by_role("button", name="Done").click()
        for points, name in enumerate(NAMES, start=5):
            if name != out:
                line = page.locator(f'fieldset[data-player="{name}"]')
                line.get_by_label("Points", exact=True).fill(str(points))
        page.wait_for_timeout(1500)  # the live check of the last line, before Save
        wire.reset()
        page.get_by_role("button", name=f"Save game {game}").click()
        expect(page.get_by_role("heading", name=f"Now: game {game + 1} of 9")).to_be_visible()
        page.wait_for_timeout(1000)
        saves.append((wire.total(polls=False), wire.received_total(polls=False), wire.lines()))
    context.close()
    return first, saves, first_lines


def emulated(browser, url: str, script: str) -> float:
    context, page = phone(browser)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", WIFI)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.goto(url, wait_until="load", timeout=60_000)
    page.wait_for_timeout(300)
    value = float(page.evaluate(script))
    context.close()
    return value


USABLE = """() => new Promise(resolve => {
  new PerformanceObserver(list => {
    const save = list.getEntries().find(e => e.identifier === "save");
    if (save) resolve(save.renderTime || save.loadTime);
  }).observe({ type: "element", buffered: true });
})"""
ENHANCED = """() => new Promise(resolve => {
  const look = () => {
    const mark = performance.getEntriesByName("table-ready")[0];
    if (mark) resolve(mark.startTime); else setTimeout(look, 50);
  };
  look();
})"""
STATIC = "() => performance.getEntriesByType('navigation')[0].responseEnd"


def static_server(folder: Path) -> ThreadingHTTPServer:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", STATIC_PORT), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> int:
    if not Path(CHROMIUM).exists():
        print(f"skipped: needs Chromium at {CHROMIUM}")
        return 0
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="bench-phone-"))
    env = environment(folder)
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    token = manage(env, "shell", "-c", SET_UP).strip().splitlines()[-1]
    url = f"http://127.0.0.1:{PORT}/t/{token}/"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi",
         "-b", f"127.0.0.1:{PORT}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    files = None
    try:
        wait_for(PORT)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            first, saves, first_lines = first_load_and_saves(browser, url)
            (folder / "one-file.txt").write_bytes(secrets.token_urlsafe(first)[:first].encode())
            files = static_server(folder)
            page_url = url.replace(token, token)  # a fresh page each run (no cache, new context)
            usable = [emulated(browser, page_url, USABLE) for _ in range(RUNS)]
            enhanced = [emulated(browser, page_url, ENHANCED) for _ in range(RUNS)]
            one_file = f"http://127.0.0.1:{STATIC_PORT}/one-file.txt"
            static = [emulated(browser, one_file, STATIC) for _ in range(RUNS)]
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        if files is not None:
            files.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    report(first, saves, first_lines, usable, enhanced, static)
    return 0


def verdict(ok: bool) -> str:
    return "OK" if ok else "MISS"


def report(first, saves, first_lines, usable, enhanced, static) -> None:
    print(f"first load: {first} B on the wire (goal ≤ {FIRST_LOAD_GOAL}: "
          f"{verdict(first <= FIRST_LOAD_GOAL)})")  # fmt: skip
    print("\n".join(first_lines))
    for game, (both, received, lines) in enumerate(saves, start=1):
        print(f"save of game {game} and its confirmation: {both} B on the wire both ways, "
              f"{received} B received (goal ≤ {SAVE_GOAL}: both ways {verdict(both <= SAVE_GOAL)},"
              f" received {verdict(received <= SAVE_GOAL)})")  # fmt: skip
        print("\n".join(lines))
    one, use, ready = (statistics.median(v) for v in (static, usable, enhanced))
    print(f"hall Wi-Fi (400 ms round trip, 400 kbit/s, CPU ×{CPU_SLOWDOWN}), median of {RUNS}:")
    print(f"  the first load's {first} B as one static file: {one:.0f} ms")
    print(
        f"  the page usable (its form drawn with its styles): {use:.0f} ms, ratio "
        f"{use / one:.2f} (goal ≤ {RATIO_GOAL}: {verdict(use / one <= RATIO_GOAL)})"
    )
    print(f"  the page enhanced (its script ready): {ready:.0f} ms, ratio {ready / one:.2f}")


if __name__ == "__main__":
    sys.exit(main())
