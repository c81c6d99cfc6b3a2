"""A site of several server processes on one real PostgreSQL: two
``tileworks serve`` processes on two ports (as on two machines) and
``tileworks serve --workers 2`` on one. Moves raced through different
processes land exactly once; a watcher of one process sees a move made
through the other; a process killed with SIGKILL while it serves a computer
seat or a clock is replaced by the other within seconds, without a double
move; no acknowledged move is ever lost."""

from __future__ import annotations

import json
import os
import time
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect as websocket

from tileworks.server.store import Store, connect

from .test_restart import Server

@pytest.fixture
def site(postgres, tmp_path):
    """Two server processes on one fresh PostgreSQL database."""
    url = postgres.new_database(f"site_{os.getpid()}_{time.monotonic_ns()}")
    first = Server(url, log=tmp_path / "a.log").start()
    second = Server(url, log=tmp_path / "b.log").start()
    yield url, first, second
    for server in (first, second):
        if server.process and server.process.poll() is None:
            server.kill()


def new_game(server, game, players, **body):
    response = server.post("/api/games", {"game": game, "players": players, **body})
    assert response.status_code == 201, response.text
    created = response.json()
    return created["id"], [s["token"] for s in created["seats"]]


def in_store(url, read):
    """``read(store)`` on the site's database, as a process of it sees it."""
    engine = connect(url)
    try:
        return read(Store(engine))
    finally:
        engine.dispose()


def stored_history(url, game_id):
    return in_store(url, lambda store: store.load(game_id)[1])


def test_moves_raced_through_two_processes_land_exactly_once(site):
    url, first, second = site
    game_id, tokens = new_game(first, "kiln", ["human", "human"])
    acknowledged = 0
    with ThreadPoolExecutor(2) as pool:
        for _turn in range(12):
            view = second.get(f"/api/games/{game_id}")
            token = tokens[view["to_move"]]
            legal = second.get(f"/api/games/{game_id}", token)["view"]["legal"]
            body = lambda move: {"move": move, "ply": view["ply"]}  # noqa: E731
            answers = list(pool.map(lambda pair: pair[0].post(f"/api/games/{game_id}/moves", body(pair[1]), token),
                                    [(first, legal[0]), (second, legal[-1])]))
            codes = sorted(a.status_code for a in answers)
            assert codes == [200, 409], [a.text for a in answers]
            acknowledged += 1
            winner = next(a for a in answers if a.status_code == 200).json()
            assert first.get(f"/api/games/{game_id}")["ply"] == second.get(f"/api/games/{game_id}")["ply"] == winner["ply"]
    assert second.get(f"/api/games/{game_id}")["moves_made"] == acknowledged
    assert len(stored_history(url, game_id)) == winner["ply"]


@contextmanager
def watch(server, game_id):
    """A spectator's live connection to ``server``, and the first view it gets."""
    with websocket(f"ws://127.0.0.1:{server.port}/api/games/{game_id}/ws", open_timeout=10) as socket:
        socket.send(json.dumps({"tokens": [], "picture": True}))
        yield socket, json.loads(socket.recv(timeout=10))


def test_a_watcher_of_one_process_sees_a_move_made_through_the_other_and_catches_up_anywhere(site):
    _url, first, second = site
    game_id, tokens = new_game(first, "azul", ["human", "human"])
    with watch(first, game_id) as (socket, seen):
        for _move in range(3):
            mover = seen["to_move"]
            legal = second.get(f"/api/games/{game_id}", tokens[mover])["view"]["legal"]
            started = time.monotonic()
            assert second.post(f"/api/games/{game_id}/moves", {"move": legal[0], "ply": seen["ply"]},
                               tokens[mover]).status_code == 200
            while True:
                update = json.loads(socket.recv(timeout=5))
                if update.get("type") == "view" and update["ply"] > seen["ply"]:
                    break
            assert time.monotonic() - started < 5.0  # pushed, not polled (usually milliseconds)
            assert update["moves"][-1]["seat"] == mover and len(update["moves"]) == len(seen["moves"]) + 1
            seen = update
    # moves made while away, then a reconnection to the other process: its first view is the whole game now
    mover = seen["to_move"]
    legal = first.get(f"/api/games/{game_id}", tokens[mover])["view"]["legal"]
    assert first.post(f"/api/games/{game_id}/moves", {"move": legal[0], "ply": seen["ply"]},
                      tokens[mover]).status_code == 200
    with watch(second, game_id) as (_socket, caught_up):
        assert caught_up["ply"] > seen["ply"] and len(caught_up["moves"]) == len(seen["moves"]) + 1
        assert caught_up["view"] == first.get(f"/api/games/{game_id}")["view"]


def serving_process(url, game_id, servers, seconds=10):
    """The server whose process holds the game's lease (its origin names its pid)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = in_store(url, lambda store: store.lease_holder(game_id))  # unexpired
        if found:
            pid = int(found.split(":")[-2])
            return next(s for s in servers if s.process.pid == pid)
        time.sleep(0.05)
    raise AssertionError(f"nobody serves game {game_id}")


def test_a_killed_process_thinking_for_a_computer_seat_is_replaced_without_a_double_move(site):
    url, first, second = site
    game_id, tokens = new_game(first, "tuileries", ["human", "mcts:seconds=1.5"])
    view = first.get(f"/api/games/{game_id}", tokens[0])
    while view["to_move"] != 0:  # the computer may open
        time.sleep(0.1)
        view = first.get(f"/api/games/{game_id}", tokens[0])
    moved = first.post(f"/api/games/{game_id}/moves", {"move": view["view"]["legal"][0], "ply": view["ply"]}, tokens[0])
    assert moved.status_code == 200 and moved.json()["to_move"] == 1
    thinking = serving_process(url, game_id, [first, second])
    other = second if thinking is first else first
    thinking.kill()  # mid-search
    killed_at = time.monotonic()
    deadline = killed_at + 30
    while (view := other.get(f"/api/games/{game_id}"))["to_move"] == 1 and view["status"] != "finished":
        assert time.monotonic() < deadline, "the computer seat was never taken over"
        time.sleep(0.1)
    assert time.monotonic() - killed_at < 20  # the lease (6 s) ran out, a heartbeat (2 s) took it, 1.5 s search
    assert view["moves_made"] == moved.json()["moves_made"] + 1  # its move, made once


def test_a_killed_process_serving_a_clock_is_replaced_and_the_clock_still_runs_out(site):
    url, first, second = site
    game_id, tokens = new_game(first, "tuileries", ["human", "human"],
                               clock={"kind": "realtime", "minutes": 0.15, "increment": 0})
    for token in tokens:  # both arrive through the first process: its clock starts there
        first.get(f"/api/games/{game_id}", token)
    serving = serving_process(url, game_id, [first, second])
    other = second if serving is first else first
    serving.kill()
    deadline = time.monotonic() + 30
    while (view := other.get(f"/api/games/{game_id}"))["status"] != "finished":
        assert time.monotonic() < deadline, "the clock never ran out"
        time.sleep(0.2)
    assert view["result"]["ended"] == "time" and len(view["result"]["out_of_time"]) == 1


def test_no_acknowledged_move_is_lost_when_a_process_is_killed(site):
    url, first, second = site
    game_id, tokens = new_game(first, "tiles", ["human", "human"])
    acknowledged = []
    servers = [first, second]
    for turn in range(16):
        if turn == 8:
            first.kill()  # half way: the rest goes through the survivor
            servers = [second]
        server = servers[turn % len(servers)]
        view = server.get(f"/api/games/{game_id}")
        if view["status"] == "finished":
            break
        legal = server.get(f"/api/games/{game_id}", tokens[view["to_move"]])["view"]["legal"]
        answer = server.post(f"/api/games/{game_id}/moves", {"move": legal[-1], "ply": view["ply"]},
                             tokens[view["to_move"]])
        assert answer.status_code == 200, answer.text
        acknowledged.append(answer.json()["ply"])
    history = stored_history(url, game_id)
    assert len(history) == acknowledged[-1] and acknowledged == sorted(set(acknowledged))


def worker_processes(supervisor: int) -> list[int]:
    """The processes uvicorn's supervisor started (its workers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == supervisor:
            found.append(int(stat.parent.name))
    return found


def test_serve_with_two_workers_shares_one_port_and_replaces_a_killed_worker(postgres, tmp_path):
    url = postgres.new_database(f"workers_{os.getpid()}")
    server = Server(url, log=tmp_path / "serve.log", extra=["--workers", "2"]).start()
    try:
        deadline = time.monotonic() + 30
        while len(workers := worker_processes(server.process.pid)) < 2:
            assert time.monotonic() < deadline, "two workers never started"
            time.sleep(0.2)
        game_id, tokens = new_game(server, "kiln", ["human", "human"])
        with ThreadPoolExecutor(8) as pool:  # many connections: both workers answer
            views = list(pool.map(lambda _: httpx.get(f"{server.url}/api/games/{game_id}", timeout=10).json(), range(40)))
        assert {v["ply"] for v in views} == {views[0]["ply"]}
        os.kill(workers[0], 9)
        while sorted(worker_processes(server.process.pid)) in ([], [workers[1]]):
            assert time.monotonic() < deadline + 30, "the killed worker was not replaced"
            time.sleep(0.2)
        view = server.get(f"/api/games/{game_id}")
        legal = server.get(f"/api/games/{game_id}", tokens[view["to_move"]])["view"]["legal"]
        assert server.post(f"/api/games/{game_id}/moves", {"move": legal[0], "ply": view["ply"]},
                           tokens[view["to_move"]]).status_code == 200
    finally:
        server.kill()


def test_processes_starting_at_once_on_a_new_database_all_start(postgres):
    """Seen once in the load benchmark: two workers starting together both
    inserted the site's first heartbeat, and the second failed to start."""
    import threading

    url = postgres.new_database(f"together_{os.getpid()}")
    barrier, failures = threading.Barrier(4), []

    def start() -> None:
        try:
            barrier.wait()
            engine = connect(url)  # the schema made (or found) ...
            Store(engine).beat(time.time())  # ... and the first heartbeat, by all at once
            engine.dispose()
        except Exception as error:  # noqa: BLE001 - what the test looks for
            failures.append(repr(error))

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_more_than_one_worker_needs_postgres(tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "tileworks.cli.main", "serve", "--workers", "2",
                           "--db", f"sqlite:///{tmp_path / 'one.db'}"], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "--workers 2 needs a PostgreSQL database" in done.stderr + done.stdout
