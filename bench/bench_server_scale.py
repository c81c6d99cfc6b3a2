"""The server under many games at once: moves per second and the time from
a move to its view, on PostgreSQL with 1 and 2 worker processes, beside
SQLite with 1, in one run.

    .venv/bin/python bench/bench_server_scale.py [--games 200 1000] [--seconds 20] [--think 10] [--in-flight 32]

Starts a throwaway PostgreSQL (Debian's, flushing to disk as a site's
would) and, for each set-up, ``tileworks serve`` (``--workers 2`` shares
one port, as behind a load balancer). Opens the given number of 2-player
Azul games, each player on a live connection of its own asking for
pictures, as the browser does (with two workers, the two players of a game
are often on different processes). Each move is sent on the mover's
connection; its latency is the time until the other player's connection
shows it. Then:

- **paced**: each game moves about every ``--think`` seconds (10 by default;
  exponential waits, as players think);
- **flat out**: moves one after another, ``--in-flight`` (32) at a time
  across all the games, each game's next as soon as its view arrives: the
  most moves per second the set-up gives, with every game still open and
  watched (latency then is mostly queueing).

The load comes from this one process on the same machine as the servers;
on 2 cores it takes a share of the CPU. Its garbage collector is paused
while it measures (with 2,000 connections' views, a collection stops it
for a tenth of a second and more, which would read as the servers'
latency). So each row also gives the CPU time
the servers and the database spent a move, flat out (the whole machine's
busy time, less this process's): the cores a site needs for a rate of
moves; and this process's own, which the players' browsers would spend on
their own machines. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
from tileworks.testing.postgres import ThrowawayPostgres, free_port  # noqa: E402

GAME = "azul"


def busy_seconds() -> tuple[float, float]:
    """CPU seconds spent so far by the whole machine (/proc/stat) and by
    this process (the load), so that the servers' and the database's share
    of a run can be told apart from the load's."""
    ticks = os.sysconf("SC_CLK_TCK")
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = fields[:7]
    own = resource.getrusage(resource.RUSAGE_SELF)
    return (user + nice + system + irq + softirq) / ticks, own.ru_utime + own.ru_stime


def start_server(db_url: str, workers: int, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    with open(log, "wb") as output:
        process = subprocess.Popen([sys.executable, "-m", "tileworks.cli.main", "serve", "--port", str(port),
                                    "--db", db_url, "--ai-workers", "1"] + (["--workers", str(workers)] if workers > 1 else []),
                                   stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/catalogue", timeout=1).status_code == 200:
                time.sleep(1.0 if workers > 1 else 0)  # every worker up
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


class Table:
    """One game: a live connection per player (each made on its own, so that
    with two workers they often land on different processes), and the last
    view each has seen."""

    def __init__(self, game_id: str, tokens: list[str]):
        self.game_id, self.tokens = game_id, tokens
        self.views: list[dict | None] = [None, None]
        self.sockets: list = [None, None]
        self.arrived = [asyncio.Event(), asyncio.Event()]
        self.refused = False

    async def play_seat(self, seat: int, base: str, ready: asyncio.Event, stop: asyncio.Event) -> None:
        async with connect(base.replace("http", "ws") + f"/api/games/{self.game_id}/ws", max_size=2**22,
                           open_timeout=120) as ws:
            self.sockets[seat] = ws
            await ws.send(json.dumps({"tokens": [self.tokens[seat]], "picture": True}))  # as a browser does
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except asyncio.TimeoutError:
                    continue
                if message.get("type") == "error":
                    self.refused = True
                    self.arrived[seat].set()
                elif message.get("type") == "view" and (self.views[seat] is None or message["ply"] > self.views[seat]["ply"]):
                    self.views[seat] = message
                    self.arrived[seat].set()
                    if all(self.views):
                        ready.set()

    async def seen_by_both(self, ply: int) -> None:
        for seat in (0, 1):
            while self.views[seat]["ply"] < ply and not self.refused:  # type: ignore[index]
                self.arrived[seat].clear()
                await asyncio.wait_for(self.arrived[seat].wait(), 60)

    async def move(self) -> float | None:
        """The mover sends its first legal move on its own connection;
        seconds until the other player's connection shows it (None: the game
        is over or the move was refused)."""
        ply = max(v["ply"] for v in self.views)  # type: ignore[index]
        await self.seen_by_both(ply)
        view = self.views[0]
        mover = view["to_move"]  # type: ignore[index]
        if mover is None or self.refused:
            return None
        other = 1 - mover
        started = time.perf_counter()
        await self.sockets[mover].send(json.dumps({"move": self.views[mover]["view"]["legal"][0], "ply": ply}))
        while self.views[other]["ply"] <= ply and not self.refused:  # type: ignore[index]
            self.arrived[other].clear()
            await asyncio.wait_for(self.arrived[other].wait(), 60)
        return None if self.refused else time.perf_counter() - started


async def measure(base: str, games: int, seconds: float, think: float = 10.0, in_flight: int = 32) -> dict[str, float]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        tables = []
        for _ in range(games):
            created = (await client.post("/api/games", json={"game": GAME, "players": ["human", "human"]})).json()
            tables.append(Table(created["id"], [s["token"] for s in created["seats"]]))
        stop = asyncio.Event()
        readies = [asyncio.Event() for _ in tables]
        watchers = []
        for table, ready in zip(tables, readies):
            watchers += [asyncio.create_task(table.play_seat(seat, base, ready, stop)) for seat in (0, 1)]
            await asyncio.sleep(0.002)  # connecting 2,000 sockets at once overflows the listen queue
        await asyncio.gather(*(r.wait() for r in readies))
        # this process's own garbage collection, walking 2,000 connections'
        # views, stops its event loop for a tenth of a second and more: a
        # server's latency it is not. Paused while measuring, as the load
        # of separate players would not have it.
        gc.collect()
        gc.disable()
        figures: dict[str, float] = {}
        for mode in ("paced", "flat out"):
            latencies: list[float] = []
            failed = [0]
            deadline = time.perf_counter() + seconds
            rng = random.Random(1)
            slots = asyncio.Semaphore(in_flight)

            async def play(table: Table) -> None:
                while time.perf_counter() < deadline:
                    if mode == "paced":  # a player thinks (the run's end cuts the last thought short)
                        await asyncio.sleep(min(rng.expovariate(1 / think), max(0.0, deadline - time.perf_counter())))
                        if time.perf_counter() >= deadline:
                            return
                    if mode == "paced":
                        took = await table.move()
                    else:
                        async with slots:
                            if time.perf_counter() >= deadline:
                                return
                            took = await table.move()
                    if took is None:  # the game is over, or the move was refused
                        failed[0] += table.refused
                        return
                    latencies.append(took)

            started, (machine, load) = time.perf_counter(), busy_seconds()
            await asyncio.gather(*(play(t) for t in tables))
            elapsed = time.perf_counter() - started
            machine_after, load_after = busy_seconds()
            figures[f"{mode} server cpu ms"] = ((machine_after - machine) - (load_after - load)) / max(1, len(latencies)) * 1000
            figures[f"{mode} load cpu ms"] = (load_after - load) / max(1, len(latencies)) * 1000
            cut = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [float("nan")] * 99
            figures[f"{mode} moves/s"] = len(latencies) / elapsed
            figures[f"{mode} p50 ms"] = cut[49] * 1000
            figures[f"{mode} p99 ms"] = cut[98] * 1000
            if failed[0]:
                print(f"  ({mode}: {failed[0]} moves refused)", flush=True)
        gc.enable()
        stop.set()
        await asyncio.gather(*watchers, return_exceptions=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each measured run")
    parser.add_argument("--think", type=float, default=10.0, help="a player's mean seconds a move, paced")
    parser.add_argument("--in-flight", type=int, default=32, help="moves under way at once, flat out")
    parser.add_argument("--only", choices=["sqlite", "postgres"], help="one database (e.g. to compare commits)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="PostgreSQL's set-ups")
    args = parser.parse_args()
    postgres = ThrowawayPostgres(durable=True).start()
    folder = Path(tempfile.mkdtemp())
    print(f"{GAME}, 2 players a game, each on a WebSocket with pictures; a move's latency: until the other player sees it")
    print(f"{'database':10} {'workers':>7} {'games':>6} | {'paced moves/s':>13} {'p50 ms':>7} {'p99 ms':>7} | "
          f"{'flat-out moves/s':>16} {'p50 ms':>7} {'p99 ms':>7} | {'server CPU ms a move':>20} {'load CPU ms a move':>18}")
    try:
        for games in args.games:
            for database, workers in [("sqlite", 1)] + [("postgres", n) for n in args.workers]:
                if args.only and database != args.only:
                    continue
                if database == "sqlite":
                    url = f"sqlite:///{folder / f'{games}.db'}"
                else:
                    url = postgres.new_database(f"bench_{games}_{workers}")
                log = folder / f"serve-{database}-{workers}-{games}.log"
                process, base = start_server(url, workers, log)
                try:
                    f = asyncio.run(measure(base, games, args.seconds, args.think, args.in_flight))
                except Exception:
                    print(f"the server's log ({log}) ends:\n" + "\n".join(log.read_text().splitlines()[-30:]))
                    raise
                finally:
                    subprocess.run(["pkill", "-KILL", "-g", str(process.pid)], check=False)
                    process.wait()
                print(f"{database:10} {workers:>7} {games:>6} | {f['paced moves/s']:>13.1f} {f['paced p50 ms']:>7.1f} "
                      f"{f['paced p99 ms']:>7.1f} | {f['flat out moves/s']:>16.1f} {f['flat out p50 ms']:>7.1f} "
                      f"{f['flat out p99 ms']:>7.1f} | {f['flat out server cpu ms']:>20.1f} {f['flat out load cpu ms']:>18.1f}", flush=True)
    finally:
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
