"""Storage: a move lands only on the version it was checked against, so two
server processes on one database can never both apply a move for one turn."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tileworks.server import create_app
from tileworks.server.store import Store, connect

from .conftest import Api


def test_an_append_on_a_stale_version_writes_nothing(db_url):
    with TestClient(create_app(db_url=db_url, ai_workers=1)) as client:
        game_id = Api(client).create("kiln", ["human", "human"])["id"]
    store = Store(connect(db_url))
    row, history = store.load(game_id)
    assert store.append(game_id, row.version, [history[0]], "playing", None)
    assert not store.append(game_id, row.version, [history[0]], "playing", None)
    again, longer = store.load(game_id)
    assert again.version == row.version + 1 and longer == history + [history[0]]


def test_two_servers_on_one_database_cannot_both_take_a_turn(db_url):
    with TestClient(create_app(db_url=db_url, ai_workers=1)) as first, \
            TestClient(create_app(db_url=db_url, ai_workers=1)) as second:
        a, b = Api(first), Api(second)
        created = a.create("kiln", ["human", "human"])
        game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
        view = b.view(game_id)  # the second server now holds the game in memory
        token = tokens[view["to_move"]]
        legal = view["view"]["legal"]
        assert a.move(game_id, legal[0], view["ply"], token).status_code == 200
        raced = b.move(game_id, legal[1], view["ply"], token)
        assert raced.status_code == 409 and "another move was made first" in raced.json()["error"]
        assert b.view(game_id) == a.view(game_id)  # the loser took the winner's state


def test_idle_games_leave_memory_and_come_back_from_the_store(db_url):
    app = create_app(db_url=db_url, ai_workers=1)
    with TestClient(app) as client:
        api = Api(client)
        hub = client.app.state.hub
        hub.max_rooms = 3
        games = [api.create("kiln", ["human", "human"]) for _ in range(5)]
        assert len(hub.rooms) == 3
        first = games[0]
        token = first["seats"][0]["token"]
        view = api.view(first["id"], token)  # reloaded from the store
        assert view["ply"] > 0 and first["id"] in hub.rooms and len(hub.rooms) == 3
        mover = {s["seat"]: s["token"] for s in first["seats"]}[view["to_move"]]
        assert api.move(first["id"], view["view"]["legal"][0], view["ply"], mover).status_code == 200
