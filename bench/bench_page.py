"""A game page as a player's browser gets it: its weight and the time to
the first board, per game, in English and Japanese.

    .venv/bin/python bench/bench_page.py [--runs 5]

Starts ``tileworks serve`` on a free port with a throwaway SQLite file,
opens each game's page in Debian's Chromium (Playwright) and prints, per
game and language: the bytes loaded before pictures (the HTML with its
translations, styles, scripts, the font slices it draws with and the first
WebSocket view without the board's SVG), the board's SVG, and the median
milliseconds from asking for the page to the first clickable board. Bodies
are counted as sent over the wire (compressed where the server compresses
them; the WebSocket view as JSON text). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import playwright.sync_api as playwright

GAMES = ("kiln", "azul", "tiles", "tuileries")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads per game and language")
    runs = parser.parse_args().runs
    port, folder = free_port(), Path(tempfile.mkdtemp())
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "tileworks.cli.main", "serve", "--port", str(port),
                               "--db", f"sqlite:///{folder / 'games.db'}", "--ai-workers", "1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/api/catalogue", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        chromium = shutil.which("chromium") or "/usr/bin/chromium"
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            print(f"{'game':10} {'lang':4} {'page kB':>8} {'board kB':>9} {'first board ms (median)':>24}")
            for game in GAMES:
                for locale in ("en-US", "ja-JP"):
                    weights, boards, times = [], [], []
                    for _run in range(runs):
                        created = httpx.post(url + "/api/games", json={"game": game, "players": ["human", "random"]}).json()
                        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
                        page = context.new_page()
                        loaded, frames = [], []
                        page.on("requestfinished", lambda r, loaded=loaded: loaded.append((r.resource_type, r.sizes()["responseBodySize"])))
                        page.on("websocket", lambda ws, frames=frames: ws.on("framereceived", lambda frame: frames.append(frame)))
                        start = time.perf_counter()
                        page.goto(f"{url}/play/{created['id']}#token={created['seats'][0]['token']}")
                        page.wait_for_selector("#board svg .target")
                        times.append((time.perf_counter() - start) * 1000)
                        page.wait_for_load_state("networkidle")
                        view = json.loads(frames[0])
                        boards.append(len(view.pop("svg").encode()))
                        weights.append(sum(size for kind, size in loaded if kind != "image") + len(json.dumps(view).encode()))
                        context.close()
                    print(f"{game:10} {locale[:2]:4} {statistics.median(weights) / 1000:8.1f} "
                          f"{statistics.median(boards) / 1000:9.1f} {statistics.median(times):24.0f}")
            browser.close()
    finally:
        server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
