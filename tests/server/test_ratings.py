"""Rated games: between accounts, and against the computer levels, whose
ratings are fixed. A finished rated game moves each account's openskill
rating for that game once, and the leaderboard and profiles show it."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tileworks.server import create_app

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


def test_the_computer_levels_have_fixed_ratings(client):
    register(client, "carol")
    ratings = []
    for _ in range(2):
        created = client.post("/api/games", json={"game": "tuileries", "players": ["human", "random"], "rated": True})
        assert created.status_code == 201, created.text
        final = play_out([client], created.json()["id"])
        assert final["result"]["ratings"][1] is None  # the computer's rating does not move
        ratings.append(final["result"]["ratings"][0])
    assert ratings[1]["before"] == ratings[0]["after"]  # the second game starts where the first left
    (row,) = client.get("/api/leaderboard/tuileries").json()
    assert row["username"] == "carol" and row["games"] == 2


def test_rated_games_refuse_guests_and_unrated_opponents(client):
    guest = new_client(client)
    refused = guest.post("/api/games", json={"game": "azul", "players": ["human", "greedy"], "rated": True})
    assert refused.status_code == 401 and refused.json()["error"] == "log in to play a rated game"
    register(client, "dave")
    two_seats = client.post("/api/games", json={"game": "azul", "players": ["human", "human"], "rated": True})
    assert two_seats.status_code == 400 and "each account holds one seat" in two_seats.json()["error"]
    timed = client.post("/api/games", json={"game": "azul", "players": ["human", "mcts:seconds=1"], "rated": True})
    assert timed.status_code == 400 and "only these computer players" in timed.json()["error"]
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
    with TestClient(create_app(db_url=db_url, ai_workers=1)) as client:
        register(client, "grace")
        play_out([client], client.post("/api/games", json={"game": "tuileries", "players": ["human", "greedy"],
                                                          "rated": True}).json()["id"])
        before = client.get("/api/leaderboard/tuileries").json()
    with TestClient(create_app(db_url=db_url, ai_workers=1)) as client:
        assert client.get("/api/leaderboard/tuileries").json() == before
