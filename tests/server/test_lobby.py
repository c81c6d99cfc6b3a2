"""An honest lobby: a game's length counts the players' decisions (not the
set-up's chance draws), "open games" lists only games the visitor may join
now, and a game nobody touches for the server's abandon time ends as
abandoned and says so."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient


from .conftest import Api, server_app
from .test_accounts import new_client, register


def test_a_new_game_has_made_no_moves_whatever_its_set_up_drew(api):
    created = api.create("azul", ["human", "human"])
    listed = api.client.get("/api/games").json()[0]
    assert listed["moves"] == 0 and listed["ply"] > 0  # the factories were filled: chance, not moves
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    view = api.play(created["id"], tokens[api.view(created["id"])["to_move"]])
    listed = api.client.get("/api/games").json()[0]
    assert listed["moves"] == view["moves_made"] == 1


def test_open_games_lists_only_games_the_visitor_may_join_now(client):
    api = Api(client)
    guest = new_client(client)
    public = client.post("/api/games", json={"game": "kiln", "players": ["human", "human"], "open_seats": [2]}).json()["id"]
    on_one_link = api.create("kiln", ["human", "human"])["id"]  # both seats are the creator's: nothing to join
    register(client, "olga")
    rated = client.post("/api/games", json={"game": "kiln", "players": ["human", "human"], "open_seats": [2],
                                            "rated": True}).json()["id"]
    waiting = {g["id"] for g in guest.get("/api/games?status=open").json()}
    assert {public, on_one_link, rated} <= waiting  # still waiting for players, all of them...
    assert [g["id"] for g in guest.get("/api/games?status=open&joinable=true").json()] == [public]  # ...one joinable
    # a rated game is joinable by another account, not by its own creator
    register(guest, "pavel")
    assert {g["id"] for g in guest.get("/api/games?joinable=true").json()} == {public, rated}
    assert {g["id"] for g in client.get("/api/games?joinable=true").json()} == {public}
    assert guest.post(f"/api/games/{public}/seats/2/claim").status_code == 200
    assert {g["id"] for g in guest.get("/api/games?joinable=true").json()} == {rated}


def test_a_rematch_waiting_for_its_players_is_not_open_to_join(api):
    created = api.create("kiln", ["human", "random"], goal=4)
    token = created["seats"][0]["token"]
    view = api.view(created["id"], token)
    while view["status"] != "finished":
        view = api.wait_for(created["id"], lambda v: v["to_move"] in (0, None), token)
        if view["to_move"] == 0:
            view = api.play(created["id"], token)
    rematch = api.client.post(f"/api/games/{created['id']}/rematch", headers={"X-Seat-Token": token}).json()["id"]
    assert rematch in {g["id"] for g in api.client.get("/api/games?status=open").json()}
    assert api.client.get("/api/games?joinable=true").json() == []


def test_a_game_nobody_touches_ends_as_abandoned_and_says_so(db_url):
    with TestClient(server_app(db_url, abandon_after=1.0)) as client:
        api = Api(client)
        left = api.create("azul", ["human", "mcts:easy"])  # the person never comes back
        timed = client.post("/api/games", json={"game": "azul", "players": ["human", "human"],
                                                "clock": {"kind": "turn", "hours": 24}}).json()
        for seat in timed["seats"]:
            api.view(timed["id"], seat["token"])  # both arrive: a clock runs, and decides this game itself
        deadline = time.monotonic() + 20
        while (view := api.view(left["id"]))["status"] != "finished":
            assert time.monotonic() < deadline, view["status"]
            time.sleep(0.1)
        assert view["result"]["ended"] == "abandoned" and view["result"]["ranks"] is None
        assert view["to_move"] is None
        listed = {g["id"]: g for g in client.get("/api/games?status=finished").json()}
        assert listed[left["id"]]["ended"] == "abandoned"
        assert api.view(timed["id"])["status"] == "playing"
        refused = api.move(left["id"], "1b1", view["ply"], left["seats"][0]["token"])
        assert refused.status_code == 409 and refused.json()["error"] == "the game is over"
        record = client.get(f"/api/games/{left['id']}/record").json()
        assert record["outcome"] == {"ended": "abandoned", "ranks": None, "out_of_time": []}
