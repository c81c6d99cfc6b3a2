"""Property-based fuzzing. schemathesis reads the OpenAPI schema a real
server publishes and runs every phase and every check it has against it
(schemathesis.toml): no 5xx, every status and body as documented, schema-
valid data accepted and invalid data refused, 405 with ``Allow``, and its
stateful phase follows the schema's links from a created game into the
game's own paths. Hypothesis also throws arbitrary moves at a game in
progress: every one is refused cleanly (and changes nothing) or is a legal
move."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_restart import Server

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    server = Server(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'games.db'}").start()
    # a game the fuzzer may stumble on, besides the ones it creates
    server.post("/api/games", {"game": "azul", "players": ["human", "human"]})
    yield server
    server.kill()


def test_schemathesis_finds_nothing_and_follows_links_into_games(live, tmp_path):
    """``st run`` with a fixed seed, as a user would run it from the
    checkout; its HAR report shows which requests reached a real game."""
    run = subprocess.run(
        [sys.executable, "-c", "from schemathesis.cli import schemathesis; schemathesis()",
         "--config-file", str(ROOT / "schemathesis.toml"), "--no-color", "run", f"{live.url}/openapi.json",
         "--max-examples", "40", "--seed", "1", "--workers", "1", "--report", "har", "--report-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    answered = Counter()
    for entry in json.loads(next(tmp_path.glob("har-*.json")).read_text())["log"]["entries"]:
        path = re.sub(r"^https?://[^/]+", "", entry["request"]["url"]).split("?")[0]
        seated = any(h["name"].lower() == "x-seat-token" for h in entry["request"]["headers"])
        answered[entry["request"]["method"], re.sub(r"^/api/games/[^/]+", "/api/games/ID", path),
                 entry["response"]["status"], seated] += 1
    # the links carried a created game's id and its first seat's token
    assert answered["POST", "/api/games", 201, False]
    assert answered["GET", "/api/games/ID", 200, True]
    assert answered["GET", "/api/games/ID/record", 200, True]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(move=st.one_of(st.text(max_size=30), st.integers(), st.none(), st.lists(st.integers(), max_size=3)),
       ply=st.one_of(st.integers(-5, 60), st.text(max_size=5), st.none()))
def test_arbitrary_moves_are_refused_cleanly_or_legal(api_module, move, ply):
    api, game_id, tokens = api_module
    before = api.view(game_id)
    token = tokens[before["to_move"]]
    response = api.client.post(f"/api/games/{game_id}/moves", content=json.dumps({"move": move, "ply": ply}),
                               headers={"X-Seat-Token": token, "content-type": "application/json"})
    assert response.status_code in (200, 400, 409, 422), response.text
    if response.status_code != 200:
        assert response.json()["status"] == response.status_code
        assert api.view(game_id) == before
    else:
        assert "".join(str(move).split()).lower() in before["view"]["legal"]


@pytest.fixture(scope="module")
def api_module(tmp_path_factory):
    from fastapi.testclient import TestClient

    from .conftest import Api, server_app

    url = f"sqlite:///{tmp_path_factory.mktemp('moves') / 'games.db'}"
    with TestClient(server_app(url)) as client:
        api = Api(client)
        created = api.create("kiln", ["human", "human"])
        yield api, created["id"], {s["seat"]: s["token"] for s in created["seats"]}
