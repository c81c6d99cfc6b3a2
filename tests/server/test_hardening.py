"""What an outside audit of a local server found, each refused as the docs
say: computer budgets past the strongest level's, WebSocket frames that are
not JSON text (binary, nested thousands deep, over the size limit), AI
workers outliving a killed server, and a schema that promised other than
what the server takes."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tileworks.agents import SERVED_LIMITS
from tileworks.server import hub as hub_module
from tileworks.server.accounts import MAX_NAME
from tileworks.server.app import MAX_BODY, MAX_FRAME, TOKEN_LIST

from .test_restart import Server

DEEP = "[" * 8000 + "]" * 8000


# -- computer budgets ------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, words", [
    ("mcts:seconds=1e9", "seconds is at most 9.5"),
    ("mcts:iterations=1000000000000", "iterations is at most 12000"),
    ("mcts:expert,iterations=12001", "iterations is at most 12000"),
    ("mcts:depth=100000", "depth is at most 8"),
    ("mcts:c=1e6", "c is at most 10"),
    ("mcts:seconds=nan", "bad value 'nan' for seconds"),
    ("mcts:seconds=0", "must be a number above 0"),
    ("mcts:iterations=-5", "must be a number at least 1"),
])
def test_a_computer_seat_may_not_ask_for_more_than_the_strongest_level(api, spec, words):
    before = api.client.get("/api/games").json()
    response = api.client.post("/api/games", json={"game": "azul", "players": ["human", spec]})
    assert response.status_code == 400, response.text
    assert words in response.json()["error"] and spec in response.json()["error"]
    assert api.client.get("/api/games").json() == before


def test_the_strongest_level_itself_and_budgets_within_it_are_accepted(api):
    for spec in ("mcts:expert", "mcts:iterations=12000,seconds=9.5,depth=8,c=10", "greedy"):
        api.create("azul", ["human", spec])


@pytest.mark.parametrize("rated", [0, 1, "true", None])
def test_rated_is_true_or_false_and_nothing_read_as_either(api, rated):
    """The schema says a boolean, so 0 or "true" is refused (schemathesis
    found 0 read as false), and no game is created."""
    before = api.client.get("/api/games").json()
    response = api.client.post("/api/games", json={"game": "azul", "players": ["human", "human"], "rated": rated})
    assert response.status_code == 422, response.text
    assert "body.rated" in response.json()["error"]
    assert api.client.get("/api/games").json() == before


def test_a_seat_stored_before_the_limits_searches_within_them():
    """A game created before the caps keeps its spec in the database; the
    server builds every search within the limits all the same."""
    agent = hub_module.served_agent("mcts:iterations=1000000000000,seconds=1000000000,depth=99", seed=1)
    assert (agent.iterations, agent.seconds, agent.depth) == (12000, 9.5, 8)
    assert hub_module.served_agent("mcts:iterations=50", seed=1).seconds == SERVED_LIMITS["mcts"]["seconds"]


# -- WebSocket frames --------------------------------------------------------------------------------
def closed_with(socket_, code):
    message = socket_.receive()
    assert message["type"] == "websocket.close" and message["code"] == code, message


@pytest.mark.parametrize("first, status", [
    (b"\x00", 422), (DEEP, 422), ("x" * (MAX_BODY + 1), 413), ("{not json", 422),
])
def test_a_bad_first_message_is_answered_and_closes_with_4000_plus_its_status(api, kiln_game, first, status):
    game_id, _ = kiln_game
    with api.client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_bytes(first) if isinstance(first, bytes) else ws.send_text(first)
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == status
        closed_with(ws, 4000 + status)


@pytest.mark.parametrize("frame, status, words", [
    (b"\x00", 422, "not a binary frame"),
    (DEEP, 422, "nested at most 64 levels deep"),
    ("x" * (MAX_BODY + 1), 413, "at most 16384 bytes"),
    (json.dumps({"move": "b8", "ply": True}), 422, "a move message is"),
    (json.dumps({"move": ["b8"], "ply": 0}), 422, "a move message is"),
])
def test_every_later_frame_gets_an_answer_and_the_socket_stays_open(api, kiln_game, frame, status, words):
    game_id, tokens = kiln_game
    before = api.view(game_id)
    with api.client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"tokens": [tokens[before["to_move"]]]})
        ws.receive_json()
        ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_text(frame)
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == status and words in error["error"]
        ws.send_json({"move": before["view"]["legal"][0], "ply": before["ply"]})  # still open: the move lands
        assert ws.receive_json()["ply"] > before["ply"]


def test_ply_true_is_no_ply_over_http(api, kiln_game):
    game_id, tokens = kiln_game
    before = api.view(game_id)
    response = api.move(game_id, before["view"]["legal"][0], True, tokens[before["to_move"]])
    assert response.status_code == 422 and "ply" in response.json()["error"]
    assert api.view(game_id) == before


@pytest.fixture(scope="module")
def real_server(tmp_path_factory):
    """The real server process (uvicorn, as `tileworks serve` runs it), its log kept."""
    folder = tmp_path_factory.mktemp("hardening")
    server = Server(f"sqlite:///{folder / 'games.db'}", log=folder / "server.log").start()
    yield server
    if server.process and server.process.poll() is None:
        server.kill()


def test_over_the_real_transport_frames_past_the_limit_get_413_and_a_traceback_is_never_logged(real_server):
    created = real_server.post("/api/games", {"game": "kiln", "players": ["human", "human"]}).json()
    url = real_server.url.replace("http", "ws") + f"/api/games/{created['id']}/ws"
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps({"tokens": []}))
        assert json.loads(ws.recv(timeout=10))["type"] == "view"
        for frame, status in ((b"\x00", 422), (DEEP, 422), ("x" * 20_000, 413), ("x" * (MAX_FRAME - 1), 413)):
            ws.send(frame)
            answer = json.loads(ws.recv(timeout=10))
            assert (answer["type"], answer["status"]) == ("error", status)
    with connect(url, max_size=None) as ws:  # past the transport's limit: closed unread, as RFC 6455 says
        ws.send(json.dumps({"tokens": []}))
        ws.recv(timeout=10)
        ws.send("x" * (MAX_FRAME + 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    log = real_server.log.read_text()
    assert "Traceback" not in log and "Exception in ASGI application" not in log


def test_a_malformed_content_length_is_refused_in_the_json_error_shape(real_server):
    for length in (b"abc", b"-1", b"1 2"):
        with socket.create_connection(("127.0.0.1", real_server.port), timeout=10) as raw:
            raw.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Content-Length: " + length + b"\r\n\r\n{}")
            answer = b""
            while chunk := raw.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400"), answer
        assert b"content-type: application/json" in head.lower()
        assert json.loads(body) == {"error": "malformed HTTP request: a bad request line, header or Content-Length",
                                    "status": 400}


# -- workers end with their server -------------------------------------------------------------------
def children_of(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_a_killed_server_takes_its_ai_workers_and_resource_tracker_with_it(db_url):
    server = Server(db_url).start()
    try:
        # an expert seat to move keeps a worker searching when the server dies
        server.post("/api/games", {"game": "azul", "players": ["mcts:expert", "mcts:expert"]})
        deadline = time.monotonic() + 30
        while len(children := children_of(server.process.pid)) < 2:  # the tracker and a worker
            assert time.monotonic() < deadline, f"no AI worker started: {children}"
            time.sleep(0.1)
        os.kill(server.process.pid, signal.SIGKILL)  # the server alone, not its process group
        server.process.wait()
        deadline = time.monotonic() + 10
        while alive := {pid for pid in children if Path(f"/proc/{pid}").exists() and not zombie(pid)}:
            assert time.monotonic() < deadline, f"still running after their server was killed: {alive}"
            time.sleep(0.1)
    finally:
        if server.process.poll() is None:
            server.kill()
        else:
            try:
                os.killpg(server.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_an_ai_worker_keeps_its_matrix_products_to_one_thread(tmp_path):
    """A worker a core (as the arena's workers, tests/arena): a computer
    seat's network reads one position at a time, and BLAS threads of its
    own would only fight the other workers'."""
    import operator

    from threadpoolctl import threadpool_info

    from tileworks.server.store import Store, connect

    pool = hub_module.Hub(Store(connect(f"sqlite:///{tmp_path / 'games.db'}")), ai_workers=1)._new_pool()
    try:
        report = pool.submit(operator.call, threadpool_info).result(timeout=60)
    finally:
        pool.shutdown()
    assert {entry["num_threads"] for entry in report if entry["user_api"] == "blas"} == {1}


def zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


# -- the schema tells the truth ------------------------------------------------------------------------
def test_the_schema_states_the_limits_the_server_keeps(client):
    schema = client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    assert components["CreateGame"]["properties"]["name"]["maxLength"] == MAX_NAME
    assert components["ClaimIn"]["properties"]["name"]["maxLength"] == MAX_NAME
    new_account = components["NewAccount"]["properties"]["username"]
    assert (new_account["minLength"], new_account["maxLength"]) == (3, 24)
    header = next(p for p in schema["paths"]["/api/games/{game_id}"]["get"]["parameters"] if p["in"] == "header")
    assert header["schema"]["pattern"] == TOKEN_LIST
    assert components["CreateGame"]["properties"]["game"]["enum"] == ["azul", "dominoes", "kiln", "tiles", "tuileries"]
    # and the server keeps them, at the boundary
    base = {"game": "kiln", "players": ["human", "human"]}
    assert client.post("/api/games", json={**base, "name": "k" * MAX_NAME}).status_code == 201
    assert client.post("/api/games", json={**base, "name": "k" * (MAX_NAME + 1)}).status_code == 400
    game_id = client.post("/api/games", json=base).json()["id"]
    assert client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": "t" * 65}).status_code == 400
    assert client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": ",".join(["t"] * 9)}).status_code == 400
    assert client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": "t" * 64}).status_code == 403
    empty = client.post("/api/accounts", json={"username": "", "password": "a long enough passphrase"})
    assert empty.status_code == 400 and "3 to 24" in empty.json()["error"]


def test_the_schemas_example_game_is_one_the_server_creates(client):
    schema = client.get("/openapi.json").json()
    [example] = schema["components"]["schemas"]["CreateGame"]["examples"]
    assert example == {"game": "azul", "players": ["human", "mcts:easy"]}  # the first game, at its fewest seats
    created = client.post("/api/games", json=example)
    assert created.status_code == 201
    assert client.get(f"/api/games/{created.json()['id']}").json()["game"] == "azul"


@pytest.mark.parametrize("path, allowed", [
    ("/api/session", "DELETE, GET, POST"), ("/api/games", "GET, POST"), ("/api/catalogue", "GET"),
])
def test_405_names_every_method_the_path_answers(client, path, allowed):
    response = client.put(path, json={})
    assert response.status_code == 405 and response.headers["allow"] == allowed
    assert response.json() == {"error": "Method Not Allowed", "status": 405}


def test_a_password_longer_than_zxcvbn_reads_is_judged_not_a_crash(client):
    strong = "violet tractor minnow equinox " * 4
    response = client.post("/api/accounts", json={"username": "longpass", "password": strong[:120]})
    assert response.status_code == 201, response.text
