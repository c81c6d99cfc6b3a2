"""Rated games: between people only, each seat an account. A finished rated
game moves each account's openskill rating for that game once, by its
placing (a seat out of time last), and the leaderboard and profiles show it.
Games against the computer are played unrated."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from .conftest import server_app
from .test_accounts import new_client, register


def play_out(clients, game_id):
    """Each client moves (the first legal move) when its account is to move."""
    seats = {client.get(f"/api/games/{game_id}").json()["you"][0]: client for client in clients}
    while True:
        view = clients[0].get(f"/api/games/{game_id}").json()
        if view["status"] == "finished":
            return view
        mover = seats.get(view["to_move"])
        if mover is None:  # the computer thinks
            time.sleep(0.02)
            continue
        legal = mover.get(f"/api/games/{game_id}").json()["view"]["legal"]
        response = mover.post(f"/api/games/{game_id}/moves", json={"move": legal[0], "ply": view["ply"]})
        assert response.status_code == 200, response.text


def rated_game_between(alice, bob, game="tuileries"):
    created = alice.post("/api/games", json={"game": game, "players": ["human", "human"], "open_seats": [2],
                                             "rated": True})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert bob.post(f"/api/games/{game_id}/seats/2/claim").status_code == 200
    return game_id


def test_a_rated_game_between_two_accounts_moves_both_ratings_once(client):
    for attempt in range(5):  # a shared win (the deal is secret, so chance decides) moves neither μ: play again
        names = [f"alice{attempt}", f"bob{attempt}"]
        register(client, names[0])
        bob = new_client(client)
        register(bob, names[1])
        game_id = rated_game_between(client, bob)
        final = play_out([client, bob], game_id)
        returns = final["result"]["returns"]
        if returns.count(max(returns)) == 1:
            break
    winner = returns.index(max(returns))
    changes = final["result"]["ratings"]
    assert [c["before"] for c in changes] == [0.0, 0.0]  # newcomers show μ − 3σ = 0
    board = [row for row in client.get("/api/leaderboard/tuileries").json() if row["username"] in names]
    assert [row["username"] for row in board] == [names[winner], names[1 - winner]]
    assert board[0]["mu"] > 25 > board[1]["mu"]
    assert [row["games"] for row in board] == [1, 1]
    assert [row["rating"] for row in board] == [changes[winner]["after"], changes[1 - winner]["after"]]
    # the game is over: nothing more is rated
    refused = client.post(f"/api/games/{game_id}/moves", json={"move": "x", "ply": final["ply"]})
    assert refused.status_code == 409
    assert [row["games"] for row in client.get("/api/leaderboard/tuileries").json() if row["username"] in names] == [1, 1]
    profile = client.get(f"/api/players/{names[winner]}").json()
    assert profile["ratings"]["tuileries"]["games"] == 1
    (played,) = profile["games"]
    assert played["id"] == game_id and played["outcome"] == "win" and played["rating"] == changes[winner]
    assert client.get("/api/leaderboard/azul").json() == []


def test_games_against_the_computer_are_never_rated(client):
    """The audit: rated games against `random` moved a person's rating, so
    leaving them running climbed the leaderboard."""
    register(client, "carol")
    for computer in ("random", "greedy", "mcts:expert"):
        refused = client.post("/api/games", json={"game": "tuileries", "players": ["human", computer], "rated": True})
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"].startswith("a rated game is between people")
    played = client.post("/api/games", json={"game": "tuileries", "players": ["human", "random"]}).json()
    final = play_out([client], played["id"])
    assert final["rated"] is False and "ratings" not in final["result"]
    assert client.get("/api/leaderboard/tuileries").json() == []
    assert client.get("/api/players/carol").json()["ratings"] == {}


def test_a_seat_that_runs_out_of_time_loses_its_rating_too(client):
    register(client, "ivan")
    judy = new_client(client)
    register(judy, "judy")
    created = client.post("/api/games", json={"game": "azul", "players": ["human", "human"], "open_seats": [2],
                                              "rated": True, "clock": {"kind": "realtime", "minutes": 0.03,
                                                                       "increment": 0}}).json()
    assert judy.post(f"/api/games/{created['id']}/seats/2/claim").status_code == 200
    client.get(f"/api/games/{created['id']}")
    judy.get(f"/api/games/{created['id']}")  # both have arrived: the clock runs, and nobody moves
    deadline = time.monotonic() + 30
    while (view := client.get(f"/api/games/{created['id']}").json())["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    late = view["result"]["out_of_time"][0]
    assert view["result"]["ranks"][late] == 2 and view["result"]["ranks"][1 - late] == 1
    changes = view["result"]["ratings"]
    assert changes[late]["after"] < changes[late]["before"] == 0.0 < changes[1 - late]["after"]
    names = ["ivan", "judy"]
    board = client.get("/api/leaderboard/azul").json()
    assert [row["username"] for row in board] == [names[1 - late], names[late]]
    assert client.get(f"/api/players/{names[late]}").json()["games"][0]["outcome"] == "loss"


def test_rated_games_refuse_guests_and_unrated_opponents(client):
    guest = new_client(client)
    refused = guest.post("/api/games", json={"game": "azul", "players": ["human", "human"], "open_seats": [2],
                                             "rated": True})
    assert refused.status_code == 401 and refused.json()["error"] == "log in to play a rated game"
    register(client, "dave")
    two_seats = client.post("/api/games", json={"game": "azul", "players": ["human", "human"], "rated": True})
    assert two_seats.status_code == 400 and "each account holds one seat" in two_seats.json()["error"]
    computer = client.post("/api/games", json={"game": "azul", "players": ["human", "mcts:hard"], "rated": True})
    assert computer.status_code == 400 and "between people" in computer.json()["error"]
    game_id = client.post("/api/games", json={"game": "azul", "players": ["human", "human"], "open_seats": [2],
                                              "rated": True}).json()["id"]
    assert guest.post(f"/api/games/{game_id}/seats/2/claim").status_code == 401
    own = client.post(f"/api/games/{game_id}/seats/2/claim")
    assert own.status_code == 409 and "already hold a seat" in own.json()["error"]
    assert client.get("/api/games").json()[0]["joinable"] == [1]  # still open for another account


def test_a_rated_rematch_keeps_each_seat_with_its_account(client):
    register(client, "erin")
    frank = new_client(client)
    register(frank, "frank")
    game_id = rated_game_between(client, frank)
    play_out([client, frank], game_id)
    rematch = client.post(f"/api/games/{game_id}/rematch")
    assert rematch.status_code == 200, rematch.text
    new_id = rematch.json()["id"]
    assert frank.post(f"/api/games/{game_id}/rematch").json()["id"] == new_id
    view = client.get(f"/api/games/{new_id}").json()
    assert view["rated"] and [s["name"] for s in view["seats"]] == ["frank", "erin"]  # seats rotated
    assert view["you"] == [1] and frank.get(f"/api/games/{new_id}").json()["you"] == [0]


def test_ratings_survive_a_restart(db_url):
    with TestClient(server_app(db_url)) as client:
        register(client, "grace")
        heidi = new_client(client)
        register(heidi, "heidi")
        play_out([client, heidi], rated_game_between(client, heidi))
        before = client.get("/api/leaderboard/tuileries").json()
    assert len(before) == 2
    with TestClient(server_app(db_url)) as client:
        assert client.get("/api/leaderboard/tuileries").json() == before
