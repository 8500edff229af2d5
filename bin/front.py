#!/usr/bin/env python3
"""The front of `make serve` and `make venue`: nginx in front of gunicorn (config/front.conf).

gunicorn's sync workers each serve one connection at a time, so a phone that sends or reads
slowly holds a worker for as long as it likes: two of them stopped a whole hall. nginx reads each
request whole and buffers each answer, so gunicorn's workers only ever talk to it, at once.

    python bin/front.py            # writes var/front/nginx.conf and runs nginx in the foreground
    python bin/front.py --check    # says whether nginx is installed, and what to install if not

The environment says where: WEB_BIND (comma-separated addresses to listen on; 127.0.0.1), WEB_PORT
(8000), WEB_SOCKET (gunicorn's Unix socket; var/run/web.sock) and FRONT_DIR (nginx's own files:
its configuration, pid and buffers; var/front).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "config" / "front.conf"
# Debian installs nginx in /usr/sbin, outside an ordinary user's PATH; Homebrew in its own.
SEARCHED = ("/usr/sbin", "/usr/local/sbin", "/usr/local/bin", "/opt/homebrew/bin")
MISSING = """\
nginx is not installed. `make serve` and `make venue` put it in front of gunicorn, so that phones
on weak Wi-Fi, which send and read slowly, never hold the server's few workers. Install it:
  Debian, Ubuntu:  sudo apt-get install nginx   (its own service need not run: `make` starts one)
  Fedora:          sudo dnf install nginx
  macOS:           brew install nginx
then run this again. `make run` (the development server) needs no nginx."""


def nginx() -> str | None:
    path = os.pathsep.join([os.environ.get("PATH", ""), *SEARCHED])
    return shutil.which("nginx", path=path)


def listen_lines(bind: str, port: str) -> str:
    addresses = [address.strip() for address in bind.split(",") if address.strip()]
    if not addresses:
        raise SystemExit("WEB_BIND names no address to listen on")
    lines = []
    for address in addresses:
        shown = f"[{address}]" if ":" in address else address  # an IPv6 address
        lines.append(f"        listen {shown}:{int(port)};")
    return "\n".join(lines)


def config(*, bind: str, port: str, socket: Path, folder: Path) -> str:
    """nginx's configuration for this stack: its addresses, its gunicorn, its own files."""
    user = "user root;" if os.geteuid() == 0 else ""  # workers as the one who started it
    filled = TEMPLATE.read_text()
    for name, value in {
        "@LISTEN@": listen_lines(bind, port),
        "@SOCKET@": str(socket),
        "@RUN@": str(folder),
        "@TEMP@": str(folder),
        "@USER@": user,
    }.items():
        filled = filled.replace(name, value)
    return filled


def _absolute(path: str) -> Path:
    return Path(path) if Path(path).is_absolute() else ROOT / path


def write_config(folder: Path) -> Path:
    text = config(
        bind=os.environ.get("WEB_BIND") or "127.0.0.1",
        port=os.environ.get("WEB_PORT") or "8000",
        socket=_absolute(os.environ.get("WEB_SOCKET") or "var/run/web.sock"),
        folder=folder,
    )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "nginx.conf"
    path.write_text(text)
    return path


def main(argv: list[str]) -> int:
    found = nginx()
    if found is None:
        print(MISSING, file=sys.stderr)
        return 1
    if argv[1:] == ["--check"]:
        return 0
    folder = _absolute(os.environ.get("FRONT_DIR") or "var/front")
    path = write_config(folder)
    command = [found, "-p", str(folder), "-c", str(path), "-e", "stderr"]
    tested = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True)
    if tested.returncode != 0:
        print(f"nginx refused {path}:\n{tested.stderr}", file=sys.stderr)
        return 1
    os.execv(found, command)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
