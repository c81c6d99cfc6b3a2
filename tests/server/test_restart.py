"""The real server process: killed with SIGKILL at any moment and started
again on the same database, every game is where its last acknowledged move
left it, and AI seats whose turn it is think again. Concurrent clients race
for one turn against it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tileworks.testing.postgres import free_port

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


class Server:
    """``tileworks serve`` in a process of its own (and its own process
    group); its output goes to ``log`` when one is given."""

    def __init__(self, db_url: str, log: Path | None = None, extra: list[str] = ()):
        self.db_url = db_url
        self.log = log
        self.extra = list(extra)
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> "Server":
        output = open(self.log, "ab") if self.log else subprocess.DEVNULL
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tileworks.cli.main", "serve", "--port", str(self.port),
             "--db", self.db_url, "--ai-workers", "1", *self.extra],
            stdout=output, stderr=output, start_new_session=True,
        )
        if self.log:
            output.close()  # the child holds its own copy
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/catalogue", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        """SIGKILL the server and everything it started (its AI workers)."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def get(self, path: str, token: str | None = None) -> dict:
        response = httpx.get(self.url + path, headers={"X-Seat-Token": token} if token else {}, timeout=10)
        assert response.status_code == 200, response.text
        return response.json()

    def post(self, path: str, body: dict, token: str | None = None) -> httpx.Response:
        return httpx.post(self.url + path, json=body, headers={"X-Seat-Token": token} if token else {}, timeout=10)


@pytest.fixture
def server(db_url):
    running = Server(db_url).start()
    yield running
    if running.process and running.process.poll() is None:
        running.kill()


def test_a_killed_server_restarts_exactly_where_the_last_acknowledged_move_left_it(server):
    created = server.post("/api/games", {"game": "tuileries", "players": ["human", "human"]}).json()
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    for _ in range(5):
        view = server.get(f"/api/games/{game_id}", tokens[0])
        mover = view["to_move"]
        legal = server.get(f"/api/games/{game_id}", tokens[mover])["view"]["legal"]
        assert server.post(f"/api/games/{game_id}/moves", {"move": legal[0], "ply": view["ply"]},
                           tokens[mover]).status_code == 200
    before = {seat: server.get(f"/api/games/{game_id}", token) for seat, token in tokens.items()}
    server.kill()
    server.start()
    after = {seat: server.get(f"/api/games/{game_id}", token) for seat, token in tokens.items()}
    assert after == before
    mover = after[0]["to_move"]
    move = after[mover]["view"]["legal"][0]
    assert server.post(f"/api/games/{game_id}/moves", {"move": move, "ply": after[0]["ply"]},
                       tokens[mover]).status_code == 200


def test_ai_seats_resume_thinking_after_a_kill(server):
    created = server.post("/api/games", {"game": "azul", "players": ["mcts:seconds=1.5", "mcts:seconds=1.5"]}).json()
    game_id = created["id"]
    start = server.get(f"/api/games/{game_id}")["ply"]
    time.sleep(0.5)  # the first seat is thinking
    server.kill()
    server.start()
    deadline = time.monotonic() + 60
    while server.get(f"/api/games/{game_id}")["ply"] == start:
        assert time.monotonic() < deadline, "no AI seat moved after the restart"
        time.sleep(0.2)


def test_concurrent_clients_racing_for_one_turn(server):
    created = server.post("/api/games", {"game": "kiln", "players": ["human", "human"]}).json()
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    view = server.get(f"/api/games/{game_id}")
    token = tokens[view["to_move"]]
    moves = view["view"]["legal"][:10]
    with ThreadPoolExecutor(10) as pool:
        codes = list(pool.map(
            lambda move: server.post(f"/api/games/{game_id}/moves", {"move": move, "ply": view["ply"]}, token).status_code,
            moves))
    assert sorted(codes) == [200] + [409] * (len(moves) - 1)
    after = server.get(f"/api/games/{game_id}")
    assert after["ply"] > view["ply"]
