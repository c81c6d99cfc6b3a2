"""Clocks: a time control chosen at creation, kept by the server. A clock
runs only for a human seat to move in a game being played; when it runs
out, the greedy computer player moves for that seat and the record says so;
a killed and restarted server keeps every clock where it was."""

from __future__ import annotations

import time

import pytest

from .test_restart import Server


def timed(api, game, clock, players=("human", "human")):
    response = api.client.post("/api/games", json={"game": game, "players": list(players), "clock": clock})
    assert response.status_code == 201, response.text
    created = response.json()
    return created["id"], [s["token"] for s in created["seats"]]


@pytest.mark.parametrize("clock, message", [
    ({"kind": "blitz"}, 'a clock is {"kind": "realtime"'),
    ({"kind": "realtime", "minutes": 0}, "clock minutes: a number from 0.02 to 180"),
    ({"kind": "realtime", "minutes": 5, "increment": -1}, "clock increment: a number from 0 to 120"),
    ({"kind": "turn", "hours": 1000}, "clock hours: a number from 1 to 336"),
    ({"kind": "turn", "hours": "24"}, "clock hours: a number from 1 to 336"),
    ({"kind": "turn", "hours": 24, "minutes": 3}, "clock: unknown setting minutes"),
])
def test_a_bad_time_control_is_refused_by_name(client, clock, message):
    response = client.post("/api/games", json={"game": "azul", "players": ["human", "human"], "clock": clock})
    assert response.status_code == 400 and message in response.json()["error"]
    assert client.get("/api/games").json() == []


def test_the_clock_starts_when_every_player_has_arrived(api):
    game_id, tokens = timed(api, "azul", {"kind": "realtime", "minutes": 5, "increment": 3})
    waiting = api.view(game_id)
    assert waiting["status"] == "open" and waiting["clock"]["running"] is None
    assert waiting["clock"]["remaining"] == [300.0, 300.0]
    for token in tokens:
        api.view(game_id, token)
    view = api.view(game_id)
    assert view["status"] == "playing" and view["clock"]["running"] == view["to_move"]
    assert 299 < view["clock"]["deadline"] - view["clock"]["now"] <= 300


def test_a_turn_ends_with_the_increment_added_and_the_other_clock_running(api):
    game_id, tokens = timed(api, "azul", {"kind": "realtime", "minutes": 5, "increment": 3})
    for token in tokens:
        api.view(game_id, token)
    mover = api.view(game_id)["to_move"]
    time.sleep(0.5)
    after = api.play(game_id, tokens[mover])
    left = after["clock"]["remaining"]
    assert 302 < left[mover] < 302.6  # 300 − 0.5 + 3
    assert after["clock"]["running"] == 1 - mover and left[1 - mover] == pytest.approx(300, abs=0.2)


def test_turn_based_games_give_each_turn_its_hours(api):
    game_id, tokens = timed(api, "tuileries", {"kind": "turn", "hours": 24})
    for token in tokens:
        api.view(game_id, token)
    view = api.view(game_id)
    assert view["clock"]["kind"] == "turn" and view["clock"]["remaining"] == [None, None]
    assert 24 * 3600 - 2 < view["clock"]["deadline"] - view["clock"]["now"] <= 24 * 3600


def test_a_clock_that_runs_out_lets_greedy_move_for_the_seat_and_the_record_says_so(api):
    game_id, tokens = timed(api, "azul", {"kind": "realtime", "minutes": 0.03, "increment": 0},
                            players=("human", "random"))
    api.view(game_id, tokens[0])  # the human arrives: its clock runs when it is to move
    def moves(view):
        return api.client.get(f"/api/games/{game_id}", params={"picture": True}).json()["moves"]

    view = api.wait_for(game_id, lambda v: any(m.get("timed_out") for m in moves(v)), seconds=30)
    late = [m for m in moves(view) if m.get("timed_out")]
    assert late and all(m["seat"] == 0 for m in late)
    assert view["clock"]["remaining"][0] == 0.0 and view["clock"]["remaining"][1] is None
    # out of time and no increment: the seat plays on only through the stand-in, to the end
    final = api.wait_for(game_id, lambda v: v["status"] == "finished", seconds=60)
    assert final["result"]["timeouts"] and {t["seat"] for t in final["result"]["timeouts"]} == {0}


def test_a_restarted_server_keeps_the_clocks_and_flags_a_deadline_that_passed_while_it_was_down(db_url):
    server = Server(db_url).start()
    try:
        created = server.post("/api/games", {"game": "tuileries", "players": ["human", "human"],
                                             "clock": {"kind": "realtime", "minutes": 0.1, "increment": 0}}).json()
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        for token in tokens:
            server.get(f"/api/games/{game_id}", token)
        view = server.get(f"/api/games/{game_id}")
        mover = view["to_move"]
        legal = server.get(f"/api/games/{game_id}", tokens[mover])["view"]["legal"]
        moved = server.post(f"/api/games/{game_id}/moves", {"move": legal[0], "ply": view["ply"]}, tokens[mover])
        assert moved.status_code == 200
        kept = moved.json()["clock"]["remaining"][mover]
        server.kill()
        time.sleep(6.5)  # the other seat's six seconds pass while nothing runs
        server.start()
        deadline = time.monotonic() + 20
        while True:
            after = server.get(f"/api/games/{game_id}?picture=true")
            if any(m.get("timed_out") for m in after["moves"]):
                break
            assert time.monotonic() < deadline, "no stand-in move after the restart"
            time.sleep(0.1)
        assert [m["seat"] for m in after["moves"] if m.get("timed_out")][0] == 1 - mover
        # the first mover's clock was not running while the server was down (nor charged for it)
        assert kept - 1 < after["clock"]["remaining"][mover] <= kept
    finally:
        if server.process and server.process.poll() is None:
            server.kill()
