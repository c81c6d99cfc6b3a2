"""The move log a page shows: each player's move with the points it made,
part by part. Over a whole game the parts add up to the final scores."""

from __future__ import annotations

import json
import random

import pytest

import tileworks
from tileworks.core import sample_chance
from tileworks.core.registry import registered_games
from tileworks.core.scoring import totals_by_kind
from tileworks.server.hub import Room, replay_log

CONFIGS = [("kiln", {"goal": 10}), ("azul", {}), ("azul", {"players": 3, "variant": "grey"}), ("tiles", {}),
           ("tuileries", {}), ("tuileries", {"players": 3, "bonus_tile": True})]


def played(name, options, seed):
    state = tileworks.load_game(name, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("name, options", CONFIGS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_parts_of_every_move_add_up_to_the_final_scores(name, options, seed):
    final = played(name, options, seed)
    log = replay_log(tileworks.load_game(name, **options).new_initial_state(), final.history())
    totals = [0] * final.game().num_players()
    for entry in log:
        for scored in entry["points"]:
            assert sum(scored["parts"]) == scored["total"] and 0 not in scored["parts"] != []
            totals[scored["seat"]] += scored["total"]
    assert totals == final.scores()
    # every part is of a kind the game names, and the kinds add up to the scores too
    kinds = {kind for kind, _ in next(i for i in registered_games() if i.name == name).score_kinds}
    by_kind = totals_by_kind(log, final.game().num_players())
    assert set().union(*by_kind) <= kinds
    assert [sum(seat.values()) for seat in by_kind] == final.scores()


def test_a_tuileries_placement_scores_each_group_it_joins():
    from tileworks.games.tuileries import position

    game = tileworks.load_game("tuileries")
    # the red knight of diamonds on d3 shares colour and sign with c3 (red king of diamonds), value and
    # sign with e3 (blue knight of diamonds), colour and value with d4 (red knight of spades): 2 + 2 + 2
    board = {"c3": "rkd", "f3": "yqh", "c6": "gjc", "f6": "bqs", "e3": "bnd", "d4": "rns"}
    state = position(game, board=board, hands=[["rnd", "ykc", "gjd", "bkh", "yjs"], ["gks", "yjd", "rqc", "gnh", "bjc"]])
    action = state.string_to_action("rnd@d3")
    assert sorted(state.score_parts(action >> 6, action & 63)) == [2, 2, 2]
    log = replay_log(state.clone(), [action])
    assert log[0]["points"] == [{"seat": 0, "total": 6, "parts": [2, 2, 2], "kinds": {"groups": 6}}]
    assert log[0]["clicks"] == [{"tile": "rnd"}, {"square": "d3"}]  # what a page marks as the last move


def test_an_azul_score_is_broken_down_into_wall_bonuses_and_floor():
    final = played("azul", {}, 3)
    log = replay_log(tileworks.load_game("azul").new_initial_state(), final.history())
    by_kind = totals_by_kind(log, 2)
    for seat, parts in enumerate(by_kind):
        walls = final.walls[5 * seat: 5 * seat + 5]
        wall = walls[0] | walls[1] | walls[2] | walls[3] | walls[4]
        rows = sum(1 for r in range(5) if wall >> (5 * r) & 31 == 31)
        assert parts.get("rows", 0) == 2 * rows  # +2 for each complete row
        colours = sum(1 for mask in walls if mask.bit_count() == 5)
        assert parts.get("colours", 0) == 10 * colours  # +10 for each colour with all five tiles
        assert parts.get("floor", 0) <= 0 < parts["wall"]


def test_each_move_is_logged_in_words_in_every_language_with_its_scoring_announced():
    final = played("azul", {}, 3)
    log = replay_log(tileworks.load_game("azul").new_initial_state(), final.history())
    assert log[0]["words"]["en"].startswith("P1 takes ") or log[0]["words"]["en"].startswith("P2 takes ")
    assert " が" in log[0]["words"]["ja"] and "枚取り" in log[0]["words"]["ja"]
    # the first round ends on a draft: its wall-tiling is announced on that move, seat by seat
    ending = next(entry for entry in log if entry["points"])
    assert ending["scoring"]["en"][0] == "Wall-tiling of round 1"
    assert [line.split(" scores ")[0] for line in ending["scoring"]["en"][1:]] == \
        [f"P{p['seat'] + 1}" for p in ending["points"]]
    assert ending["scoring"]["ja"][0] == "ラウンド 1 の壁貼り"
    assert all("scoring" not in entry for entry in log if not entry["points"])


def test_the_log_sent_with_every_move_is_the_whole_log_though_each_entry_is_encoded_once():
    """A room sends its whole move log with each view. It encodes each entry
    once, as it joins the log; the text is always the log's JSON, whether
    the log grew by one move or by several caught up at once."""
    final = played("azul", {}, 3)
    history = final.history()
    state = tileworks.load_game("azul").new_initial_state()
    room = Room(row=None, state=state, log=replay_log(state, history[:10]))  # type: ignore[arg-type]
    assert json.loads(room.log_json()) == room.log and room.log_json() == json.dumps(room.log)
    for ply in range(10, len(history), 7):  # a few plies at a time, as moves and catch-ups bring them
        room.log.extend(replay_log(state, history[ply:ply + 7], first_ply=ply))
        assert room.log_json() == json.dumps(room.log)
    assert len(room.log_encoded) == len(room.log) == len(replay_log(tileworks.load_game("azul").new_initial_state(), history))
