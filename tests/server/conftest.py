"""A server on a fresh SQLite file per test, driven in-process."""

from __future__ import annotations

import itertools
import os
import time

import pytest
from fastapi.testclient import TestClient

from tileworks.server import create_app
from tileworks.server.store import connect, metadata
from tileworks.testing.postgres import ThrowawayPostgres


class Api:
    """A little client that speaks the server's API with seat tokens."""

    def __init__(self, client: TestClient):
        self.client = client

    def create(self, game, players, status=201, **options):
        response = self.client.post("/api/games", json={"game": game, "players": players, "options": options})
        assert response.status_code == status, response.text
        return response.json()

    def view(self, game_id, *tokens, status=200):
        response = self.client.get(f"/api/games/{game_id}", headers=self.headers(tokens))
        assert response.status_code == status, response.text
        return response.json()

    def move(self, game_id, move, ply, *tokens):
        return self.client.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": ply},
                                headers=self.headers(tokens))

    def play(self, game_id, token, move=None):
        """Make a move (the first legal one by default) from the current view; returns the new view."""
        view = self.view(game_id, token)
        response = self.move(game_id, move or view["view"]["legal"][0], view["ply"], token)
        assert response.status_code == 200, response.text
        return response.json()

    def wait_for(self, game_id, condition, *tokens, seconds=60):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            view = self.view(game_id, *tokens)
            if condition(view):
                return view
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting on game {game_id}: {view}")

    @staticmethod
    def headers(tokens):
        return {"X-Seat-Token": ",".join(tokens)} if tokens else {}


#: argon2id's least settings: the servers the tests start in-process hash
#: passwords with these (0.44 ms a check, against 119 ms), so that logins
#: cost a test nothing; the real settings have tests of their own (test_accounts.py)
CHEAP_PASSWORDS = {"password_memory_kib": 32, "password_passes": 1}


def server_app(db_url, **settings):
    """The server as tests run it in-process: one AI worker, cheap password hashes."""
    return create_app(db_url=db_url, **{"ai_workers": 1, **CHEAP_PASSWORDS, **settings})


@pytest.fixture(scope="session")
def postgres():
    """A real PostgreSQL server (Debian's), started once per test process."""
    server = ThrowawayPostgres().start()
    yield server
    server.stop()


_databases = itertools.count()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    """Every test of the server runs on both databases it supports: a fresh
    SQLite file, and a fresh database on a real PostgreSQL server (or, with
    TILEWORKS_TEST_DB set to a PostgreSQL URL, that database emptied)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url = os.environ.get("TILEWORKS_TEST_DB")
    if url:
        engine = connect(url)
        metadata.drop_all(engine)
        engine.dispose()
        return url
    return request.getfixturevalue("postgres").new_database(f"test_{os.getpid()}_{next(_databases)}")


@pytest.fixture
def client(db_url):
    with TestClient(server_app(db_url)) as client:
        yield client


@pytest.fixture
def api(client):
    return Api(client)


@pytest.fixture
def kiln_game(api):
    """A KILN game for two humans: its id and each seat's token."""
    created = api.create("kiln", ["human", "human"])
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}
