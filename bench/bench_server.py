"""Load on the game server over loopback (prints figures).

Starts `tileworks serve` on a fresh SQLite database, creates GAMES games
(the four games in turn, two human seats each), and plays them with scripted
clients: one WebSocket per seat, which answers its turn with a random legal
move after a think time (uniform in [0.5, 1.5] x --think seconds; 0: at once).
Reports moves per second and the time from sending a move to receiving the
view that shows it (p50, p99, max).

Usage: python bench/bench_server.py [--games 200] [--moves 30] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
import websockets

GAMES = ("kiln", "azul", "tiles", "tuileries")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def seat_client(url: str, game_id: str, seat: int, token: str, moves: int, think: float,
                      rng: random.Random, latencies: list[float], done: dict[str, int],
                      over: asyncio.Event) -> None:
    ws_url = url.replace("http://", "ws://", 1)
    async with websockets.connect(f"{ws_url}/api/games/{game_id}/ws", max_size=2**22) as ws:
        await ws.send(json.dumps({"tokens": [token]}))
        sent_at: float | None = None
        sent_ply = -1
        stop = asyncio.ensure_future(over.wait())
        while True:
            incoming = asyncio.ensure_future(ws.recv())
            await asyncio.wait({incoming, stop}, return_when=asyncio.FIRST_COMPLETED)
            if not incoming.done():  # the game has had its moves
                incoming.cancel()
                return
            message = json.loads(incoming.result())
            if message["type"] == "error":
                sent_at = None
                continue
            if sent_at is not None and message["ply"] > sent_ply:
                latencies.append(time.perf_counter() - sent_at)
                done[game_id] += 1
                sent_at = None
            if message["status"] == "finished" or done[game_id] >= moves:
                over.set()
                stop.cancel()
                return
            if message["to_move"] == seat and sent_at is None and message["ply"] != sent_ply:
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_ply = message["ply"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"move": rng.choice(message["view"]["legal"]), "ply": sent_ply}))


async def run(url: str, games: int, moves: int, think: float, seed: int) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        created = []
        for i in range(games):
            response = await http.post("/api/games", json={"game": GAMES[i % 4], "players": ["human", "human"]})
            response.raise_for_status()
            created.append(response.json())
    latencies: list[float] = []
    done = {c["id"]: 0 for c in created}
    over = {c["id"]: asyncio.Event() for c in created}
    start = time.perf_counter()
    await asyncio.gather(*(
        seat_client(url, c["id"], s["seat"], s["token"], moves, think, random.Random(rng.random()), latencies, done,
                    over[c["id"]])
        for c in created for s in c["seats"]
    ))
    elapsed = time.perf_counter() - start
    latencies.sort()
    ms = [x * 1000 for x in latencies]
    print(f"# {time.strftime('%Y-%m-%d')}  {platform.processor() or platform.machine()}  {os.cpu_count()} cores  "
          f"Python {platform.python_version()}")
    print(f"{games} games over WebSockets, {len(ms)} moves in {elapsed:.1f} s, think time {think} s")
    print(f"  {len(ms) / elapsed:8.1f} moves/s")
    print(f"  p50 {statistics.median(ms):6.1f} ms   p99 {ms[int(0.99 * (len(ms) - 1))]:6.1f} ms   "
          f"max {ms[-1]:6.1f} ms   (send a move -> receive the new view)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="moves per game")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time of a scripted player, seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "tileworks.cli.main", "serve", "--port", str(port), "--data", data],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    if httpx.get(f"{url}/api/catalogue").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            asyncio.run(run(url, args.games, args.moves, args.think, args.seed))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()


if __name__ == "__main__":
    main()
