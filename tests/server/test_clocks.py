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


def test_with_two_players_a_clock_that_runs_out_ends_the_game_and_loses_it(api):
    """The audit: Azul for two, the other seat random, and P1 never moves.
    At 0:00 the game is over and P1 has lost: no computer wins it for them."""
    game_id, tokens = timed(api, "azul", {"kind": "realtime", "minutes": 0.03, "increment": 0},
                            players=("human", "random"))
    api.view(game_id, tokens[0])  # the human arrives: its clock runs when it is to move
    final = api.wait_for(game_id, lambda v: v["status"] == "finished", seconds=30)
    result = final["result"]
    assert result["ended"] == "time" and result["out_of_time"] == [0] and result["ranks"] == [2, 1]
    assert "timeouts" not in result  # nobody moved for P1
    assert final["to_move"] is None and final["clock"]["running"] is None
    refused = api.move(game_id, final["view"]["legal"][0], final["ply"], tokens[0])
    assert refused.status_code == 409 and refused.json()["error"] == "the game is over"
    record = api.client.get(f"/api/games/{game_id}/record").json()
    assert record["result"] is None  # the rules never reached their end...
    assert record["outcome"] == {"ended": "time", "ranks": [2, 1], "out_of_time": [0]}  # ...the clock did
    assert api.client.get(f"/api/games/{game_id}/replay?move=0").status_code == 200  # a finished game replays


def test_with_three_players_the_game_goes_on_and_the_seat_out_of_time_is_placed_last(api):
    game_id, tokens = timed(api, "azul", {"kind": "realtime", "minutes": 0.03, "increment": 0},
                            players=("human", "random", "random"))
    api.view(game_id, tokens[0])
    final = api.wait_for(game_id, lambda v: v["status"] == "finished", seconds=120)
    result = final["result"]
    assert result["ended"] == "end" and result["out_of_time"] == [0]
    # the computer (greedy) made P1's every move from then on, and however it
    # scored, P1 is placed below both seats that kept to their clocks
    assert result["timeouts"] and {t["seat"] for t in result["timeouts"]} == {0}
    assert result["ranks"][0] == 3 and max(result["ranks"][1:]) < 3
    moves = api.client.get(f"/api/games/{game_id}", params={"picture": True}).json()["moves"]
    assert all(m.get("timed_out") for m in moves if m["seat"] == 0)
    assert final["clock"]["remaining"][0] == 0.0


def test_once_out_of_time_a_seat_may_not_move_again(api):
    """Even when increments would give it time again: the computer plays it to the end."""
    game_id, tokens = timed(api, "tuileries", {"kind": "realtime", "minutes": 0.03, "increment": 60},
                            players=("human", "greedy", "greedy"))
    api.view(game_id, tokens[0])

    def flagged(view):
        moves = api.client.get(f"/api/games/{game_id}", params={"picture": True}).json()["moves"]
        return any(m.get("timed_out") for m in moves)

    view = api.wait_for(game_id, flagged, seconds=30)
    refused = api.move(game_id, "anything", view["ply"], tokens[0])
    assert refused.status_code == 409
    assert refused.json()["error"] == "P1's clock ran out: the computer makes its moves to the end"
    final = api.wait_for(game_id, lambda v: v["status"] == "finished", seconds=120)
    assert final["result"]["ranks"][0] == 3


def test_a_restarted_server_does_not_charge_the_time_it_was_down_to_anyone(db_url):
    """The audit: a restart during your turn took 15 s off your clock."""
    server = Server(db_url).start()
    try:
        created = server.post("/api/games", {"game": "tuileries", "players": ["human", "human"],
                                             "clock": {"kind": "realtime", "minutes": 0.2, "increment": 0}}).json()
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        for token in tokens:
            server.get(f"/api/games/{game_id}", token)
        view = server.get(f"/api/games/{game_id}")
        mover = view["to_move"]
        legal = server.get(f"/api/games/{game_id}", tokens[mover])["view"]["legal"]
        moved = server.post(f"/api/games/{game_id}/moves", {"move": legal[0], "ply": view["ply"]}, tokens[mover])
        assert moved.status_code == 200
        clock = moved.json()["clock"]
        waiting = clock["running"]
        left_at_kill = clock["remaining"][waiting] - (time.time() - clock["now"])
        server.kill()
        time.sleep(15)  # longer than the seat's 12 seconds: charged, its clock would have run out
        server.start()
        after = server.get(f"/api/games/{game_id}")
        assert after["status"] == "playing" and after["clock"]["running"] == waiting
        left = after["clock"]["deadline"] - after["clock"]["now"]
        # back where it was when the server died, give or take the heartbeat (2 s) and the restart
        assert left_at_kill - 4 < left <= left_at_kill + 0.5, (left_at_kill, left)
        assert not any(m.get("timed_out") for m in server.get(f"/api/games/{game_id}?picture=true")["moves"])
    finally:
        if server.process and server.process.poll() is None:
            server.kill()
