"""Property-based fuzzing: schemathesis generates requests from the OpenAPI
schema FastAPI publishes and sends them to a real server; nothing may give a
5xx. Hypothesis also throws arbitrary moves at a game in progress: every one
is refused cleanly (and changes nothing) or is a legal move."""

from __future__ import annotations

import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tileworks.server import create_app

from .test_restart import Server

schema = schemathesis.openapi.from_dict(create_app().openapi())


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    server = Server(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'games.db'}").start()
    # a game the fuzzer may stumble on, besides the ones it creates
    server.post("/api/games", {"game": "azul", "players": ["human", "human"]})
    yield server
    server.kill()


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail(case, live):
    response = case.call(base_url=live.url, timeout=30)
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.status_code} {response.text}"
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("error"), str) and body["status"] == response.status_code


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

    from .conftest import Api

    url = f"sqlite:///{tmp_path_factory.mktemp('moves') / 'games.db'}"
    with TestClient(create_app(db_url=url, ai_workers=1)) as client:
        api = Api(client)
        created = api.create("kiln", ["human", "human"])
        yield api, created["id"], {s["seat"]: s["token"] for s in created["seats"]}
