"""The move log a page shows: each player's move with the points it made,
part by part. Over a whole game the parts add up to the final scores."""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks.core import sample_chance
from tileworks.server.hub import replay_log

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
    assert log[0]["points"] == [{"seat": 0, "total": 6, "parts": [2, 2, 2]}]
    assert log[0]["clicks"] == [{"tile": "rnd"}, {"square": "d3"}]  # what a page marks as the last move
