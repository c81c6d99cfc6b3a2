"""Load on the game server over loopback (prints figures).

Starts `tileworks serve` on a fresh SQLite database, creates GAMES games
(the four games in turn, two human seats each), and plays them with scripted
clients: one WebSocket per seat, which answers its turn with a random legal
move after a think time (uniform in [0.5, 1.5] x --think seconds; 0: at once).
Reports moves per second and the time from sending a move to receiving the
view that shows it (p50, p99, max).

With --accounts, each game is a rated game between two accounts (one
creates it with the second seat open, the other claims that seat); every
request and WebSocket carries its account's session cookie, and each move
is checked against the seat's account. With --clock, each game has a
real-time clock (30 minutes + 5 s), so every move also charges a clock,
stores it and replaces the game's deadline timer.

Usage: python bench/bench_server.py [--games 200] [--moves 30] [--think 1.0] [--accounts] [--clock]
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


async def seat_client(url: str, game_id: str, seat: int, token: str, cookie: str | None, moves: int, think: float,
                      rng: random.Random, latencies: list[float], done: dict[str, int],
                      over: asyncio.Event) -> None:
    ws_url = url.replace("http://", "ws://", 1)
    headers = {"Cookie": cookie} if cookie else None
    async with websockets.connect(f"{ws_url}/api/games/{game_id}/ws", max_size=2**22,
                                  additional_headers=headers) as ws:
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


PASSWORD = "violet kiln tortoise 42"
CLOCK = {"kind": "realtime", "minutes": 30, "increment": 5}


async def account(url: str, name: str) -> httpx.AsyncClient:
    """A client logged in as a new account (its cookie kept)."""
    client = httpx.AsyncClient(base_url=url, timeout=60)
    (await client.post("/api/accounts", json={"username": name, "password": PASSWORD})).raise_for_status()
    return client


async def create(url: str, i: int, accounts: bool, clock: bool) -> dict:
    """Game ``i``: its id and, per seat, its token and session cookie."""
    body: dict = {"game": GAMES[i % 4], "players": ["human", "human"]}
    if clock:
        body["clock"] = CLOCK
    if not accounts:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            response = await http.post("/api/games", json=body)
            response.raise_for_status()
            made = response.json()
        return {"id": made["id"], "seats": [(s["seat"], s["token"], None) for s in made["seats"]]}
    host, guest = await account(url, f"host{i}"), await account(url, f"guest{i}")
    try:
        response = await host.post("/api/games", json={**body, "open_seats": [2], "rated": True})
        response.raise_for_status()
        made = response.json()
        claimed = await guest.post(f"/api/games/{made['id']}/seats/2/claim")
        claimed.raise_for_status()
        cookie = "tileworks-session={}"
        return {"id": made["id"], "seats": [
            (0, made["seats"][0]["token"], cookie.format(host.cookies["tileworks-session"])),
            (1, claimed.json()["token"], cookie.format(guest.cookies["tileworks-session"]))]}
    finally:
        await host.aclose()
        await guest.aclose()


async def run(url: str, games: int, moves: int, think: float, seed: int, accounts: bool, clock: bool) -> None:
    rng = random.Random(seed)
    begun = time.perf_counter()
    created = []
    for first in range(0, games, 10):  # ten at a time: accounts cost an argon2 hash each
        created += await asyncio.gather(*(create(url, i, accounts, clock) for i in range(first, min(games, first + 10))))
    setup = time.perf_counter() - begun
    latencies: list[float] = []
    done = {c["id"]: 0 for c in created}
    over = {c["id"]: asyncio.Event() for c in created}
    start = time.perf_counter()
    await asyncio.gather(*(
        seat_client(url, c["id"], seat, token, cookie, moves, think, random.Random(rng.random()), latencies, done,
                    over[c["id"]])
        for c in created for seat, token, cookie in c["seats"]
    ))
    elapsed = time.perf_counter() - start
    latencies.sort()
    ms = [x * 1000 for x in latencies]
    print(f"# {time.strftime('%Y-%m-%d')}  {platform.processor() or platform.machine()}  {os.cpu_count()} cores  "
          f"Python {platform.python_version()}")
    kind = ", ".join(["rated, between accounts"] * accounts + ["real-time clocks"] * clock) or "guests, no clocks"
    print(f"{games} games ({kind}) over WebSockets, {len(ms)} moves in {elapsed:.1f} s, think time {think} s"
          f" (set-up {setup:.1f} s)")
    print(f"  {len(ms) / elapsed:8.1f} moves/s")
    print(f"  p50 {statistics.median(ms):6.1f} ms   p99 {ms[int(0.99 * (len(ms) - 1))]:6.1f} ms   "
          f"max {ms[-1]:6.1f} ms   (send a move -> receive the new view)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="moves per game")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time of a scripted player, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--accounts", action="store_true", help="rated games between two logged-in accounts")
    parser.add_argument("--clock", action="store_true", help="a real-time clock in every game")
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
            asyncio.run(run(url, args.games, args.moves, args.think, args.seed, args.accounts, args.clock))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()


if __name__ == "__main__":
    main()
