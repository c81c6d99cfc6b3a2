"""Tiles' JAX engine on positions a player would recognise: closing an area
of your colour (and of someone else's), a forced discard, a pass, the far
edge of the window, and what a seat may see."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tileworks
import tileworks.jax
from tileworks.games.tiles import DISCARD_HEAVY, position

SIXTEEN_WHITE = ",".join(["wwww"] * 16)


@functools.lru_cache(maxsize=None)
def _environment(options: tuple):
    """One environment per option set, so that each compiles once."""
    return tileworks.jax.make("tiles", **dict(options))


@functools.lru_cache(maxsize=None)
def _step_with_chance(env):
    return jax.jit(env.step_with_chance)


def _both(options: dict, **fields):
    """The JAX environment, and the position in both engines."""
    env = _environment(tuple(sorted(options.items())))
    python = position(tileworks.load_game("tiles", **options), **fields)
    return env, env.from_python(python), python


def _legal(state) -> list[int]:
    return np.flatnonzero(np.asarray(state.legal_action_mask)).tolist()


def _play(env, state, python, move: str):
    """``move`` in both engines (Tiles notation, e.g. ``bwbb@-1,0``), the
    next seat drawing the first tile kind the deck holds; the JAX state after it."""
    action = python.string_to_action(move)
    assert action in _legal(state)
    python.apply_action(action)
    draws = []
    while python.is_chance_node():
        draws.append(python.chance_outcomes()[0][0])
        python.apply_action(draws[-1])
    outcomes = draws + [-1] * (env.max_chance - len(draws))
    return _step_with_chance(env)(state, jnp.int32(action), jnp.asarray(outcomes))


@functools.lru_cache(maxsize=None)
def _observe(env):
    return jax.jit(env.observe)


def _seen(env, state, viewer: int):
    return np.asarray(_observe(env)(state.replace(current_player=jnp.int32(viewer))))


@pytest.mark.parametrize("mover, gained", [(0, [1, 0]), (1, [0, 0])])
def test_closing_a_two_tile_area_scores_one_point_only_for_its_colour(mover, gained):
    # a black tile with a white west triangle; the tile played west of it
    # turns its one white triangle east: the two white triangles face only
    # each other, a closed area touching two tiles. White is seat 1's colour.
    hands = [["gwgw", "wwww"], ["gwgw", "wwww"]]
    hands[mover] = ["bbbw", "gggg"]
    env, state, python = _both({}, layout=[[0, 0, "bbbw"]], hands=hands, to_move=mover, seat=mover)
    after = _play(env, state, python, "bwbb@-1,0")
    assert np.asarray(after._points).tolist() == gained == python.scores()
    assert int(after.current_player) == 1 - mover == python.current_player()
    assert _legal(after) == sorted(python.legal_actions())


def test_an_area_touching_three_tiles_scores_three():
    # white: the west triangle of 0,0, the east and north ones of -1,0 (one
    # area: they meet along the tile's diagonal), open to the north until a
    # tile with one white triangle, facing south, goes on -1,1
    env, state, python = _both({}, layout=[[0, 0, "bbbw"], [-1, 0, "wwbb"]], hands=[["bbwb"], ["gggg"]])
    before = python.closed_areas()
    after = _play(env, state, python, "bbwb@-1,1")
    assert sorted(set(python.closed_areas()) - set(before)) == [(0, 3)]  # white, three tiles
    assert int(after._points[0]) == 3 == python.scores()[0]


def test_a_hand_that_fits_nowhere_must_discard_and_an_empty_hand_passes():
    # only white tiles can touch the all-white first tile
    options = {"tile_set": DISCARD_HEAVY}
    rest = ["wwww"] * 3 + ["gggg"] * 5 + ["bbbb"] * 5 + ["wwgg"] * 2
    env, state, python = _both(
        options, layout=[[0, 0, "wwww"]], hands=[["gggg", "bbbb"], ["wwww", "wwww"]], deck={},
        discards=rest,
    )
    game = python.game()
    assert _legal(state) == sorted(python.legal_actions()) == [
        game.discard_base + game.tileset.kind_of("bbbb"), game.discard_base + game.tileset.kind_of("gggg")]
    after = _play(env, state, python, "xgggg")
    grey = game.tileset.kind_of("gggg")
    assert int(after._discards[grey]) == 6 == python.discards.count(grey)  # five before, and this one
    after = _play(env, after, python, "wwww@1,0")
    after = _play(env, after, python, "xbbbb")
    assert _legal(after) == sorted(python.legal_actions())  # seat 2 still places its last white tile
    after = _play(env, after, python, "wwww@-1,0")
    assert bool(after.terminated) and np.asarray(after.rewards).tolist() == python.returns() == [0.5, 0.5]

    env, state, python = _both(options, layout=[[0, 0, "wwww"]], hands=[[], ["wwww"]], deck={},
                               discards=rest + ["gggg", "bbbb", "wwww"])
    assert _legal(state) == [python.game().pass_action] == python.legal_actions()
    after = _play(env, state, python, "pass")
    assert int(after.current_player) == 1 and not bool(after.terminated)


@pytest.mark.parametrize("step", [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_a_straight_line_of_the_whole_set_stays_inside_the_window(step):
    # sixteen tiles in a row reach 15 cells from the first: as far as any layout can
    dx, dy = step
    layout = [[i * dx, i * dy, "wwww"] for i in range(15)]
    env, state, python = _both({"tile_set": SIXTEEN_WHITE}, layout=layout, hands=[["wwww"], []], deck={})
    assert env.window == 33
    assert _legal(state) == sorted(python.legal_actions())
    after = _play(env, state, python, f"wwww@{15 * dx},{15 * dy}")
    assert bool(after.terminated)
    assert env.to_python(after)._fields()["layout"] == python._fields()["layout"]


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    fields = {"layout": [[0, 0, "bbbw"]], "colours": ["white", "grey"]}
    env, one, _ = _both({}, hands=[["bbbw", "gggg"], ["wwww", "bbbb"]], **fields)
    _, other, _ = _both({}, hands=[["bbbw", "gggg"], ["wgwg", "bbgg"]], **fields)
    assert np.array_equal(_seen(env, one, 0), _seen(env, other, 0))
    assert not np.array_equal(_seen(env, one, 1), _seen(env, other, 1))


@pytest.mark.parametrize("options", [{}, {"players": 3, "tile_set": DISCARD_HEAVY}])
def test_the_opening_observation_written_directly_is_the_general_one(options):
    # init writes the opening's observation without reading the layout (only
    # the first tile is on it); it must be what observing that position gives
    # (64 openings, four at a time: the cross-check's batched init, compiled once)
    env = _environment(tuple(sorted(options.items())))
    init, observe = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(lambda state: env.observe(state)))
    for keys in jax.random.split(jax.random.PRNGKey(3), 64).reshape(16, 4, -1):
        states = init(keys)
        assert np.array_equal(np.asarray(states.observation), np.asarray(observe(states)))
        assert np.asarray(states.observation).sum(axis=1).min() > 4  # the first tile's four sides, and the hand
