"""Dominoes' batched engine (JAX) passes the same checks as the engines of
the games tileworks ships: one import line, and the game named. Then the
rule tests' positions played in both engines, field by field: a blocked
game, a shared blocked game, the domino, and a draw."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")  # the engine is optional: pip install 'tileworks-dominoes[jax]'

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import tileworks  # noqa: E402
import tileworks.jax  # noqa: E402
from tileworks.testing.batched import *  # noqa: E402,F403
from tileworks_dominoes import position  # noqa: E402
from tileworks_dominoes.tiles import TILE_ID, TILES  # noqa: E402

TILEWORKS_GAMES = ["dominoes"]


def both(options, **fields):
    """A position in the Python engine and the same in the JAX engine."""
    python = position(tileworks.load_game("dominoes", **options), **fields)
    env = tileworks.jax.make("dominoes", **options)
    return python, env, env.from_python(python)


def play_both(python, env, state, move, drawn=None):
    """One move in both engines (``drawn``: the tile chance gives after a draw)."""
    action = python.string_to_action(move)
    python.apply_action(action)
    outcomes = [-1] * env.max_chance
    if drawn is not None:
        python.apply_action(TILE_ID[drawn])
        outcomes[0] = TILE_ID[drawn]
    return jax.jit(env.step_with_chance)(state, jnp.int32(action), jnp.asarray(outcomes))


def agree(python, env, state):
    assert bool(state.terminated) == python.is_terminal()
    assert np.asarray(env.scores(state)).tolist() == python.scores()
    if python.is_terminal():
        assert np.asarray(state.rewards).tolist() == python.returns()
    else:
        assert int(state.current_player) == python.current_player()
        assert np.flatnonzero(np.asarray(state.legal_action_mask)).tolist() == python.legal_actions()
    assert env.to_python(state).to_json()["state"] == python.to_json()["state"] | {
        "hand_slots": [[] for _ in range(python.game().players)], "private_to": []}


def test_a_blocked_game_goes_to_the_lightest_hand_in_both_engines():
    python, env, state = both({}, line=["6-6"], hands=[["0-1", "2-2"], ["4-4", "3-4"]])
    for move in ("pass", "pass"):
        state = play_both(python, env, state, move)
        agree(python, env, state)
    assert np.asarray(state.rewards).tolist() == [1.0, 0.0] and np.asarray(state._points).tolist() == [15, 0]


def test_equal_lightest_hands_share_a_blocked_game_in_both_engines():
    python, env, state = both({"players": 3}, line=["6-6"], hands=[["0-2"], ["1-1"], ["4-4"]])
    for move in ("pass", "pass", "pass"):
        state = play_both(python, env, state, move)
    agree(python, env, state)
    assert np.asarray(state.rewards).tolist() == [0.5, 0.5, 0.0]


def test_the_domino_scores_every_pip_left_in_both_engines():
    python, env, state = both({"players": 3}, line=["6-6", "6-3"],
                              hands=[["3-5"], ["4-4", "1-2"], ["0-0", "6-5"]])
    state = play_both(python, env, state, "3-5R")
    agree(python, env, state)
    assert np.asarray(state._points).tolist() == [22, 0, 0]


def test_a_draw_gives_the_drawer_a_tile_and_the_turn_again_in_both_engines():
    python, env, state = both({"draw": True}, line=["6-6", "6-3"], hands=[["0-2", "1-4"], ["4-4", "3-5"]])
    agree(python, env, state)
    state = play_both(python, env, state, "draw", drawn=(3, 3))
    agree(python, env, state)
    assert int(state.current_player) == 0 and int(state._chance[0]) == TILE_ID[3, 3]
    state = play_both(python, env, state, "3-3R")  # turned to match: the line ends 3-3 on the right
    agree(python, env, state)
    assert python.to_json()["state"]["line"] == ["6-6", "6-3", "3-3"]


def test_every_tile_of_the_set_has_its_place_in_the_jax_tables():
    from tileworks_dominoes.batched import HIGH, LOW, PIPS

    assert [(int(a), int(b)) for a, b in zip(LOW, HIGH)] == list(TILES)
    assert int(PIPS.sum()) == 168
